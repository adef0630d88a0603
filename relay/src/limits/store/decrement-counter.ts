// Takes back what this transaction added earlier (a batch that counted more than it finally accepted);
// only meaningful inside the transaction that made the increment, so it runs on the caller's executor.
import type { CounterExecutor } from './increment-counter.js';

export async function decrementCounter(executor: CounterExecutor, scope: string, windowStart: number, amount: number): Promise<void> {
  await executor
    .updateTable('rate_limit_counters')
    .set((eb) => ({ count: eb('count', '-', amount) }))
    .where('scope', '=', scope)
    .where('window_start', '=', windowStart)
    .execute();
}
