// The conditional increment of one rate-limit counter: an atomic upsert that adds the cost only while
// the counter stays within its ceiling, so concurrent requests (in one process or several relays sharing
// one PostgreSQL) can never push it past. It runs once per request or batch, so it is built once
// (reusable-query.ts): prepare once per repository, then call the answer per increment.
import { sql, type Kysely } from 'kysely';
import { ReusableQuery } from '../../db/reusable-query.js';
import type { Database } from '../../db/schema.js';

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

/** Answers the new count, or undefined when the increment was refused (nothing is written then). */
export type IncrementCounter = (executor: CounterExecutor, increment: CounterIncrement) => Promise<number | undefined>;

/**
 * `waitForFlush: false` is for a statement run on its own whose commit need not wait for the WAL flush
 * (PostgreSQL): the RETURNING clause sets synchronous_commit off for this one transaction, before it
 * commits; only when a row was written, as a refused increment writes nothing to wait for.
 */
export function prepareIncrementCounter(db: Kysely<Database>, options: { waitForFlush: boolean }): IncrementCounter {
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
  const query: ReusableQuery<IncrementValues, { count: number }> = options.waitForFlush
    ? new ReusableQuery((values: IncrementValues) => increment(values).returning('count'))
    : new ReusableQuery((values: IncrementValues) =>
        increment(values).returning(['count', sql<string>`set_config('synchronous_commit', 'off', true)`.as('commit_mode')]),
      );
  return async (executor, counter) => {
    if (counter.cost > counter.ceiling) return undefined;
    const result = await query.execute(executor, {
      scope: counter.scope,
      windowStart: counter.windowStart,
      cost: counter.cost,
      expiresAt: counter.expiresAt,
      highestBefore: counter.ceiling - counter.cost,
    });
    const row = result.rows[0];
    return row === undefined ? undefined : Number(row.count);
  };
}
