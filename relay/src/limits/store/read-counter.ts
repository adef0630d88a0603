// A counter's current value; a window nothing was counted in yet reads as 0.
import type { CounterExecutor } from './increment-counter.js';

export async function readCounter(executor: CounterExecutor, scope: string, windowStart: number): Promise<number> {
  const row = await executor
    .selectFrom('rate_limit_counters')
    .select('count')
    .where('scope', '=', scope)
    .where('window_start', '=', windowStart)
    .executeTakeFirst();
  return row === undefined ? 0 : Number(row.count);
}
