// The SQL of the rate-limit counters: one row per (scope, window start), changed only by an atomic
// conditional upsert so that concurrent requests — in one process or in several relays sharing one
// PostgreSQL — can never push a counter past its ceiling.
import type { Kysely } from 'kysely';
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

export class RateLimitCounterRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Adds `cost` when the counter stays within `ceiling`; returns the new count, or undefined when the
   * increment was refused (nothing is written then, so refused requests do not count).
   */
  async tryIncrement(increment: CounterIncrement, executor: CounterExecutor = this.db): Promise<number | undefined> {
    if (increment.cost > increment.ceiling) return undefined;
    const row = await executor
      .insertInto('rate_limit_counters')
      .values({
        scope: increment.scope,
        window_start: increment.windowStart,
        count: increment.cost,
        expires_at: increment.expiresAt,
      })
      .onConflict((oc) =>
        oc
          .columns(['scope', 'window_start'])
          .doUpdateSet((eb) => ({ count: eb('rate_limit_counters.count', '+', increment.cost) }))
          .where('rate_limit_counters.count', '<=', increment.ceiling - increment.cost),
      )
      .returning('count')
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.count);
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
