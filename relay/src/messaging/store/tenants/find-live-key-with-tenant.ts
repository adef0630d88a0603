// The live key with this prefix and its tenant, in one query: the hot path of every authenticated
// request, so it is one join rather than two lookups.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export function findLiveKeyWithTenant(db: Kysely<Database>, prefix: string) {
  return db
    .selectFrom('msg_api_keys')
    .innerJoin('msg_tenants', 'msg_tenants.id', 'msg_api_keys.tenant_id')
    .selectAll('msg_tenants')
    .select('msg_api_keys.key_hash')
    .where('msg_api_keys.prefix', '=', prefix)
    .where('msg_api_keys.revoked_at', 'is', null)
    .executeTakeFirst();
}
