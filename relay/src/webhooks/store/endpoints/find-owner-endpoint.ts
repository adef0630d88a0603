// The owner's live endpoint: absent, deleted and someone else's all read as not found.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { EndpointRow, WebhookOwner } from '../webhook-records.js';

export async function findOwnerEndpoint(db: Kysely<Database>, owner: WebhookOwner, id: string): Promise<EndpointRow | undefined> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('id', '=', id)
    .where('owner_kind', '=', owner.kind)
    .where('owner_id', '=', owner.id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}
