// A tenant's API keys, revoked ones included, oldest first, for the operator's key listing.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ApiKeyRow } from './tenant-rows.js';

export function listApiKeys(db: Kysely<Database>, tenantId: string): Promise<ApiKeyRow[]> {
  return db.selectFrom('msg_api_keys').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').execute();
}
