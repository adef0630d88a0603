// Stores a new endpoint. The caller seals its secrets first: this file writes what it is given.
import type { Insertable, Kysely } from 'kysely';
import type { Database, WebhookEndpointsTable } from '../../../db/schema.js';

export async function insertWebhookEndpoint(db: Kysely<Database>, sealedRow: Insertable<WebhookEndpointsTable>): Promise<void> {
  await db.insertInto('webhook_endpoints').values(sealedRow).execute();
}
