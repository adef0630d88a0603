// One INSERT for a batch of new messages: a row whose (tenant, business-event id) already exists is
// skipped by the unique index (ON CONFLICT DO NOTHING), and the ids of the rows inserted come back
// (RETURNING). Kysely builds the statement once per batch size (reusable-query.ts) — so it stays
// each dialect's own SQL — and afterwards it only runs with new values: building a 24-column row
// through the query builder costs more than the database inserting it.
import type { Kysely } from 'kysely';
import { ReusableQuery } from '../../../db/reusable-query.js';
import type { Database } from '../../../db/schema.js';
import type { Executor, MessageRow } from './message-rows.js';

/** Every column of a message, listed through a record so that the compiler notices a new one. */
const COLUMN_SET: Readonly<Record<keyof MessageRow, true>> = {
  id: true,
  tenant_id: true,
  business_event_id: true,
  transaction_id: true,
  action: true,
  request_hash: true,
  channel: true,
  to_address: true,
  subject: true,
  html: true,
  text: true,
  event_key: true,
  template_id: true,
  template_fallback: true,
  status: true,
  status_rank: true,
  provider: true,
  provider_message_id: true,
  attempts: true,
  next_attempt_at: true,
  lease_until: true,
  error: true,
  created_at: true,
  updated_at: true,
  attachment_bytes: true,
  metadata: true,
  tags: true,
  test_mode: true,
};
const COLUMNS = Object.keys(COLUMN_SET) as (keyof MessageRow)[];

/** The built statements by row count; the caller keeps this map so that each is built only once. */
export type NewMessagesStatements = Map<number, ReusableQuery<unknown[], { id: string }>>;

/** Inserts the rows that are new on `executor` (the caller's transaction); returns the ids of those inserted. */
export async function insertNewMessages(db: Kysely<Database>, executor: Executor, rows: readonly MessageRow[], statements: NewMessagesStatements): Promise<Set<string>> {
  const values: unknown[] = [];
  for (const row of rows) for (const column of COLUMNS) values.push(row[column]);
  const result = await statementFor(db, statements, rows.length).execute(executor, values);
  return new Set(result.rows.map((row) => row.id));
}

/** Values go row by row in COLUMNS order: the row-r, column-c value is at r × columns + c. */
function statementFor(db: Kysely<Database>, statements: NewMessagesStatements, rowCount: number): ReusableQuery<unknown[], { id: string }> {
  let statement = statements.get(rowCount);
  if (!statement) {
    statement = new ReusableQuery<unknown[], { id: string }>((values) =>
      db
        .insertInto('msg_messages')
        .values(
          Array.from(
            { length: rowCount },
            (_, row) => Object.fromEntries(COLUMNS.map((column, index) => [column, values[row * COLUMNS.length + index]])) as unknown as MessageRow,
          ),
        )
        .onConflict((oc) => oc.columns(['tenant_id', 'business_event_id']).doNothing())
        .returning('id'),
    );
    statements.set(rowCount, statement);
  }
  return statement;
}
