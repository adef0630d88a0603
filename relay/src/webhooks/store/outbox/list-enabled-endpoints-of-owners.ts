// The enabled live endpoints of several owners in one query (an outbox batch may announce changes of
// many owners); the caller groups them by owner. Kinds and ids are matched separately: the caller
// keeps only the pairs it asked for.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { EndpointRow } from '../webhook-records.js';

export async function listEnabledEndpointsOfOwners(db: Kysely<Database>, kinds: readonly string[], ids: readonly string[]): Promise<EndpointRow[]> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('owner_kind', 'in', [...kinds])
    .where('owner_id', 'in', [...ids])
    .where('deleted_at', 'is', null)
    .where('enabled', '=', 1)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
