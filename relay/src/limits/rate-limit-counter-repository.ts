// The rate-limit counters: one row per (scope, window start), changed only by an atomic conditional
// upsert so that concurrent requests — in one process or in several relays sharing one PostgreSQL —
// can never push a counter past its ceiling. Each method runs one operation of store/; the prepared
// (reusable) statements are built once here, in the constructor, so every call reuses them.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { decrementCounter } from './store/decrement-counter.js';
import { prepareIncrementCounter, type CounterExecutor, type CounterIncrement, type IncrementCounter } from './store/increment-counter.js';
import { prepareIncrementCounterPair, type IncrementCounterPair } from './store/increment-counter-pair.js';
import { pruneExpiredCounters } from './store/prune-expired-counters.js';
import { readCounter } from './store/read-counter.js';

export type { CounterExecutor, CounterIncrement } from './store/increment-counter.js';

export class RateLimitCounterRepository {
  /** Runs once per request or batch, so it is built once (see reusable-query.ts). */
  private readonly conditionalIncrement: IncrementCounter;
  /**
   * The same, for a statement run on its own whose commit need not wait for the WAL flush (PostgreSQL):
   * the RETURNING clause sets synchronous_commit off for this one transaction, before it commits.
   * Only when a row was written; a refused increment writes nothing to wait for.
   */
  private readonly conditionalIncrementWithoutFlushWait: IncrementCounter;
  /** Two counters (of different scopes) in one statement, each under its own ceiling. */
  private readonly conditionalPairIncrement: IncrementCounterPair;

  constructor(private readonly db: Kysely<Database>) {
    this.conditionalIncrement = prepareIncrementCounter(db, { waitForFlush: true });
    this.conditionalIncrementWithoutFlushWait = prepareIncrementCounter(db, { waitForFlush: false });
    this.conditionalPairIncrement = prepareIncrementCounterPair(db);
  }

  /**
   * tryIncrement for two counters of different scopes in one statement (one round trip; on
   * PostgreSQL both row locks are taken at once). Each is incremented or refused on its own: answers
   * the new count of each scope that was incremented.
   */
  async tryIncrementPair(first: CounterIncrement, second: CounterIncrement, executor: CounterExecutor = this.db): Promise<Map<string, number>> {
    if (first.scope === second.scope) throw new Error('tryIncrementPair needs two different scopes');
    return this.conditionalPairIncrement(executor, first, second);
  }

  /**
   * Adds `cost` when the counter stays within `ceiling`; returns the new count, or undefined when the
   * increment was refused (nothing is written then, so refused requests do not count).
   */
  tryIncrement(increment: CounterIncrement, executor: CounterExecutor = this.db): Promise<number | undefined> {
    return this.conditionalIncrement(executor, increment);
  }

  /**
   * tryIncrement as a statement of its own (no transaction of the caller's) whose commit does not wait
   * for the write-ahead log to reach the disk: a database crash may forget the last fraction of a
   * second of such counts. Only where the dialect can (see DialectCapabilities.commitsWithoutFlushWait).
   */
  tryIncrementWithoutFlushWait(increment: CounterIncrement): Promise<number | undefined> {
    return this.conditionalIncrementWithoutFlushWait(this.db, increment);
  }

  /**
   * Takes back `amount` that this transaction added earlier (a batch that counted more than it
   * finally accepted); only meaningful inside the transaction that made the increment.
   */
  decrement(scope: string, windowStart: number, amount: number, executor: CounterExecutor = this.db): Promise<void> {
    return decrementCounter(executor, scope, windowStart, amount);
  }

  read(scope: string, windowStart: number, executor: CounterExecutor = this.db): Promise<number> {
    return readCounter(executor, scope, windowStart);
  }

  /** Deletes counters whose window has ended; returns how many. */
  pruneExpired(nowMs: number): Promise<number> {
    return pruneExpiredCounters(this.db, nowMs);
  }
}
