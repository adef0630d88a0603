// The owner's enabled live endpoints, for publishing: the caller filters them by event type (the
// filter is a short JSON list; matching it in SQL would need dialect-specific JSON functions).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { EndpointRow, WebhookOwner } from '../webhook-records.js';

export async function listEnabledOwnerEndpoints(db: Kysely<Database>, owner: WebhookOwner): Promise<EndpointRow[]> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('owner_kind', '=', owner.kind)
    .where('owner_id', '=', owner.id)
    .where('deleted_at', 'is', null)
    .where('enabled', '=', 1)
    .orderBy('created_at')
    .execute();
}
