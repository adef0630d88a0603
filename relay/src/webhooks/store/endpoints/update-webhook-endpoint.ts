// Writes changes to an endpoint; secrets among them arrive sealed by the caller.
import type { Kysely, Updateable } from 'kysely';
import type { Database, WebhookEndpointsTable } from '../../../db/schema.js';

export async function updateWebhookEndpoint(db: Kysely<Database>, id: string, sealedChanges: Updateable<WebhookEndpointsTable>): Promise<void> {
  await db.updateTable('webhook_endpoints').set(sealedChanges).where('id', '=', id).execute();
}
