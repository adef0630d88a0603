// A dispatch pass's outcomes written as one statement per kind (sent, failed, retry) rather than one
// per message: at dispatch rates the per-statement cost was most of the pass's record transaction.
// Each row keeps its own values: a column every row gives the same value is set plainly, one that
// differs is `CASE id WHEN … THEN … ELSE <the row's own value> END`. Plain SQL both SQLite and
// PostgreSQL run the same way (the ELSE branch gives PostgreSQL the column's type for the values).
import { sql, type RawBuilder } from 'kysely';
import type { DeliveryStatus } from '@ledgerwire/shared';
import type { Executor, MessageRow } from './message-rows.js';
import { STATUS_RANK } from './status-ranks.js';

export type StatusMoveColumns = Partial<Pick<MessageRow, 'provider' | 'provider_message_id' | 'error' | 'attempts' | 'next_attempt_at' | 'lease_until'>>;
export type StatusMove = Readonly<{ id: string; set: StatusMoveColumns }>;
export type RetrySchedule = Readonly<{ id: string; attempts: number; nextAttemptAt: string; error: string }>;

/** Rows per statement: a few bound values per row, far inside either database's limit. */
const CHUNK = 200;

type Column = keyof StatusMoveColumns;
type Value = string | number | null;

/**
 * Moves each message to `status` when that ranks higher than its current one (as advanceStatus does
 * for one), with its own extra columns. Returns the ids that moved.
 */
export async function advanceStatuses(executor: Executor, status: DeliveryStatus, at: string, moves: readonly StatusMove[]): Promise<Set<string>> {
  const rank = STATUS_RANK[status];
  const moved = new Set<string>();
  for (let start = 0; start < moves.length; start += CHUNK) {
    const chunk = moves.slice(start, start + CHUNK);
    const columns = [...new Set(chunk.flatMap((move) => Object.keys(move.set) as Column[]))];
    const values = Object.fromEntries(columns.map((column) => [column, perRow(column, chunk.map((move) => ({ id: move.id, value: move.set[column] })))]));
    const rows = await executor
      .updateTable('msg_messages')
      .set({ ...values, status, status_rank: rank, updated_at: at })
      .where('id', 'in', chunk.map((move) => move.id))
      .where('status_rank', '<', rank)
      .returning('id')
      .execute();
    for (const row of rows) moved.add(row.id);
  }
  return moved;
}

/** Keeps each still-queued message queued for a later attempt at its own time, and releases its lease. */
export async function scheduleRetries(executor: Executor, at: string, retries: readonly RetrySchedule[]): Promise<void> {
  for (let start = 0; start < retries.length; start += CHUNK) {
    const chunk = retries.slice(start, start + CHUNK);
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

/** One column's value for each row: undefined keeps the row's own. */
function perRow<T extends Value>(column: Column, rows: readonly { id: string; value: T | undefined }[]): RawBuilder<T> {
  const first = rows[0]?.value;
  if (first !== undefined && rows.every((row) => row.value === first)) return sql<T>`${first}`;
  const branches = rows.filter((row) => row.value !== undefined).map((row) => sql`WHEN ${row.id} THEN ${row.value}`);
  return sql<T>`CASE ${sql.ref('id')} ${sql.join(branches, sql` `)} ELSE ${sql.ref(column)} END`;
}
