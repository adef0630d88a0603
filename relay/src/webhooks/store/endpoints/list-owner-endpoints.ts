// The owner's live endpoints in the order they were made (the API's list).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { EndpointRow, WebhookOwner } from '../webhook-records.js';

export async function listOwnerEndpoints(db: Kysely<Database>, owner: WebhookOwner): Promise<EndpointRow[]> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('owner_kind', '=', owner.kind)
    .where('owner_id', '=', owner.id)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
