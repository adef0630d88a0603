// A dispatch pass's retries in one statement per 200 messages: each still-queued message stays
// queued for a later attempt at its own time, and its lease is released so that attempt can claim it.
import type { Executor } from './message-rows.js';
import { perRow, ROWS_PER_STATEMENT } from './per-row-value.js';

export type RetrySchedule = Readonly<{ id: string; attempts: number; nextAttemptAt: string; error: string }>;

export async function scheduleMessageRetries(executor: Executor, at: string, retries: readonly RetrySchedule[]): Promise<void> {
  for (let start = 0; start < retries.length; start += ROWS_PER_STATEMENT) {
    const chunk = retries.slice(start, start + ROWS_PER_STATEMENT);
    await executor
      .updateTable('msg_messages')
      .set({
        attempts: perRow('attempts', chunk.map((retry) => ({ id: retry.id, value: retry.attempts }))),
        next_attempt_at: perRow('next_attempt_at', chunk.map((retry) => ({ id: retry.id, value: retry.nextAttemptAt }))),
        error: perRow('error', chunk.map((retry) => ({ id: retry.id, value: retry.error }))),
        lease_until: null,
        updated_at: at,
      })
      .where('id', 'in', chunk.map((retry) => retry.id))
      .where('status', '=', 'queued')
      .execute();
  }
}
