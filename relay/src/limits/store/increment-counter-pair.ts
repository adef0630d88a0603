// Two counters of different scopes incremented in one statement (one round trip; on PostgreSQL both row
// locks are taken at once), each under its own ceiling and refused on its own. Built once
// (reusable-query.ts): prepare once per repository, then call the answer per request.
import type { Kysely } from 'kysely';
import { ReusableQuery } from '../../db/reusable-query.js';
import type { Database } from '../../db/schema.js';
import type { CounterExecutor, CounterIncrement } from './increment-counter.js';

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

/** Answers the new count of each scope that was incremented. */
export type IncrementCounterPair = (executor: CounterExecutor, first: CounterIncrement, second: CounterIncrement) => Promise<Map<string, number>>;

export function prepareIncrementCounterPair(db: Kysely<Database>): IncrementCounterPair {
  const query = new ReusableQuery<PairValues, { scope: string; count: number }>((values) =>
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
  return async (executor, first, second) => {
    const result = await query.execute(executor, {
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
  };
}
