// Stores one event row: its payload is what every delivery of the event sends, so it is written first.
import type { Insertable, Kysely } from 'kysely';
import type { Database, WebhookEventsTable } from '../../../db/schema.js';

export async function insertWebhookEvent(db: Kysely<Database>, row: Insertable<WebhookEventsTable>): Promise<void> {
  await db.insertInto('webhook_events').values(row).execute();
}
