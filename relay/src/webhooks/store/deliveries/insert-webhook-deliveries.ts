// Queues delivery rows (one per subscribed endpoint) in one statement; none is no statement at all.
import type { Insertable, Kysely } from 'kysely';
import type { Database, WebhookDeliveriesTable } from '../../../db/schema.js';

export async function insertWebhookDeliveries(db: Kysely<Database>, rows: Insertable<WebhookDeliveriesTable>[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('webhook_deliveries').values(rows).execute();
}
