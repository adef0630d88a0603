// Writes an outbox batch's event rows, then their deliveries, in the caller's transaction, a chunk per
// statement: they commit or roll back with the change they announce.
import type { Insertable, Kysely } from 'kysely';
import type { Database, WebhookDeliveriesTable, WebhookEventsTable } from '../../../db/schema.js';

/** Rows per INSERT: well inside SQLite's and PostgreSQL's bound-parameter limits. */
const INSERT_CHUNK = 200;

export async function insertOutboxRows(
  trx: Kysely<Database>,
  eventRows: readonly Insertable<WebhookEventsTable>[],
  deliveryRows: readonly Insertable<WebhookDeliveriesTable>[],
): Promise<void> {
  for (let start = 0; start < eventRows.length; start += INSERT_CHUNK) {
    await trx.insertInto('webhook_events').values(eventRows.slice(start, start + INSERT_CHUNK)).execute();
  }
  for (let start = 0; start < deliveryRows.length; start += INSERT_CHUNK) {
    await trx.insertInto('webhook_deliveries').values(deliveryRows.slice(start, start + INSERT_CHUNK)).execute();
  }
}
