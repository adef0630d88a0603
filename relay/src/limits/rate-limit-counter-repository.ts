// The SQL of the rate-limit counters: one row per (scope, window start), changed only by an atomic
// conditional upsert so that concurrent requests — in one process or in several relays sharing one
// PostgreSQL — can never push a counter past its ceiling.
import { sql, type Kysely } from 'kysely';
import { ReusableQuery } from '../db/reusable-query.js';
import type { Database } from '../db/schema.js';

export type CounterExecutor = Kysely<Database>;

export type CounterIncrement = Readonly<{
  scope: string;
  windowStart: number;
  expiresAt: number;
  /** The counter may reach this value and no more. */
  ceiling: number;
  cost: number;
}>;

type IncrementValues = Readonly<{ scope: string; windowStart: number; cost: number; expiresAt: number; highestBefore: number }>;

type PairValues = Readonly<{
  firstScope: string;
  firstWindowStart: number;
  firstCost: number;
  firstExpiresAt: number;
  firstHighestBefore: number;
  secondScope: string;
  secondWindowStart: number;
  secondCost: number;
  secondExpiresAt: number;
  secondHighestBefore: number;
}>;

export class RateLimitCounterRepository {
  /** Runs once per request or batch, so it is built once (see reusable-query.ts). */
  private readonly conditionalIncrement: ReusableQuery<IncrementValues, { count: number }>;
  /**
   * The same, for a statement run on its own whose commit need not wait for the WAL flush (PostgreSQL):
   * the RETURNING clause sets synchronous_commit off for this one transaction, before it commits.
   * Only when a row was written; a refused increment writes nothing to wait for.
   */
  private readonly conditionalIncrementWithoutFlushWait: ReusableQuery<IncrementValues, { count: number }>;
  /** Two counters (of different scopes) in one statement, each under its own ceiling. */
  private readonly conditionalPairIncrement: ReusableQuery<PairValues, { scope: string; count: number }>;

  constructor(private readonly db: Kysely<Database>) {
    const increment = (values: IncrementValues) =>
      db
        .insertInto('rate_limit_counters')
        .values({ scope: values.scope, window_start: values.windowStart, count: values.cost, expires_at: values.expiresAt })
        .onConflict((oc) =>
          oc
            .columns(['scope', 'window_start'])
            .doUpdateSet((eb) => ({ count: eb('rate_limit_counters.count', '+', values.cost) }))
            .where('rate_limit_counters.count', '<=', values.highestBefore),
        );
    this.conditionalIncrement = new ReusableQuery((values: IncrementValues) => increment(values).returning('count'));
    this.conditionalIncrementWithoutFlushWait = new ReusableQuery((values: IncrementValues) =>
      increment(values).returning(['count', sql<string>`set_config('synchronous_commit', 'off', true)`.as('commit_mode')]),
    );
    this.conditionalPairIncrement = new ReusableQuery<PairValues, { scope: string; count: number }>((values) =>
      db
        .insertInto('rate_limit_counters')
        .values([
          { scope: values.firstScope, window_start: values.firstWindowStart, count: values.firstCost, expires_at: values.firstExpiresAt },
          { scope: values.secondScope, window_start: values.secondWindowStart, count: values.secondCost, expires_at: values.secondExpiresAt },
        ])
        .onConflict((oc) =>
          oc
            .columns(['scope', 'window_start'])
            .doUpdateSet((eb) => ({ count: eb('rate_limit_counters.count', '+', eb.ref('excluded.count')) }))
            .where((eb) =>
              eb(
                'rate_limit_counters.count',
                '<=',
                // Cast: PostgreSQL would read the parameters of a CASE as text.
                eb
                  .case()
                  .when('rate_limit_counters.scope', '=', values.firstScope)
                  .then(eb.cast<number>(eb.val(values.firstHighestBefore), 'bigint'))
                  .else(eb.cast<number>(eb.val(values.secondHighestBefore), 'bigint'))
                  .end(),
              ),
            ),
        )
        .returning(['scope', 'count']),
    );
  }

  /**
   * tryIncrement for two counters of different scopes in one statement (one round trip; on
   * PostgreSQL both row locks are taken at once). Each is incremented or refused on its own: answers
   * the new count of each scope that was incremented.
   */
  async tryIncrementPair(first: CounterIncrement, second: CounterIncrement, executor: CounterExecutor = this.db): Promise<Map<string, number>> {
    if (first.scope === second.scope) throw new Error('tryIncrementPair needs two different scopes');
    const result = await this.conditionalPairIncrement.execute(executor, {
      firstScope: first.scope,
      firstWindowStart: first.windowStart,
      firstCost: first.cost,
      firstExpiresAt: first.expiresAt,
      firstHighestBefore: first.ceiling - first.cost,
      secondScope: second.scope,
      secondWindowStart: second.windowStart,
      secondCost: second.cost,
      secondExpiresAt: second.expiresAt,
      secondHighestBefore: second.ceiling - second.cost,
    });
    return new Map(result.rows.map((row) => [row.scope, Number(row.count)]));
  }

  /**
   * Adds `cost` when the counter stays within `ceiling`; returns the new count, or undefined when the
   * increment was refused (nothing is written then, so refused requests do not count).
   */
  async tryIncrement(increment: CounterIncrement, executor: CounterExecutor = this.db): Promise<number | undefined> {
    return this.increment(this.conditionalIncrement, increment, executor);
  }

  /**
   * tryIncrement as a statement of its own (no transaction of the caller's) whose commit does not wait
   * for the write-ahead log to reach the disk: a database crash may forget the last fraction of a
   * second of such counts. Only where the dialect can (see DialectCapabilities.commitsWithoutFlushWait).
   */
  async tryIncrementWithoutFlushWait(increment: CounterIncrement): Promise<number | undefined> {
    return this.increment(this.conditionalIncrementWithoutFlushWait, increment, this.db);
  }

  private async increment(
    query: ReusableQuery<IncrementValues, { count: number }>,
    increment: CounterIncrement,
    executor: CounterExecutor,
  ): Promise<number | undefined> {
    if (increment.cost > increment.ceiling) return undefined;
    const result = await query.execute(executor, {
      scope: increment.scope,
      windowStart: increment.windowStart,
      cost: increment.cost,
      expiresAt: increment.expiresAt,
      highestBefore: increment.ceiling - increment.cost,
    });
    const row = result.rows[0];
    return row === undefined ? undefined : Number(row.count);
  }

  /**
   * Takes back `amount` that this transaction added earlier (a batch that counted more than it
   * finally accepted); only meaningful inside the transaction that made the increment.
   */
  async decrement(scope: string, windowStart: number, amount: number, executor: CounterExecutor = this.db): Promise<void> {
    await executor
      .updateTable('rate_limit_counters')
      .set((eb) => ({ count: eb('count', '-', amount) }))
      .where('scope', '=', scope)
      .where('window_start', '=', windowStart)
      .execute();
  }

  async read(scope: string, windowStart: number, executor: CounterExecutor = this.db): Promise<number> {
    const row = await executor
      .selectFrom('rate_limit_counters')
      .select('count')
      .where('scope', '=', scope)
      .where('window_start', '=', windowStart)
      .executeTakeFirst();
    return row === undefined ? 0 : Number(row.count);
  }

  /** Deletes counters whose window has ended; returns how many. */
  async pruneExpired(nowMs: number): Promise<number> {
    const result = await this.db.deleteFrom('rate_limit_counters').where('expires_at', '<', nowMs).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
