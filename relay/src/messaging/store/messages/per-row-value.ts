// One column's value for each row of a batched UPDATE (message status moves and retries): a value
// every row shares is set plainly, differing ones as `CASE id WHEN … THEN … ELSE <the row's own
// value> END`. Plain SQL both SQLite and PostgreSQL run the same way (the ELSE branch gives
// PostgreSQL the column's type for the values).
import { sql, type RawBuilder } from 'kysely';
import type { MessageRow } from './message-rows.js';

export type StatusMoveColumns = Partial<Pick<MessageRow, 'provider' | 'provider_message_id' | 'error' | 'attempts' | 'next_attempt_at' | 'lease_until'>>;

/** Rows per statement: a few bound values per row, far inside either database's limit. */
export const ROWS_PER_STATEMENT = 200;

export type BatchColumn = keyof StatusMoveColumns;
type Value = string | number | null;

/** One column's value for each row: undefined keeps the row's own. */
export function perRow<T extends Value>(column: BatchColumn, rows: readonly { id: string; value: T | undefined }[]): RawBuilder<T> {
  const first = rows[0]?.value;
  if (first !== undefined && rows.every((row) => row.value === first)) return sql<T>`${first}`;
  const branches = rows.filter((row) => row.value !== undefined).map((row) => sql`WHEN ${row.id} THEN ${row.value}`);
  return sql<T>`CASE ${sql.ref('id')} ${sql.join(branches, sql` `)} ELSE ${sql.ref(column)} END`;
}
