// One of a tenant's API keys by its prefix, scoped to the tenant so an operator cannot reach another's key.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ApiKeyRow } from './tenant-rows.js';

export function findApiKey(db: Kysely<Database>, tenantId: string, prefix: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('msg_api_keys').selectAll().where('tenant_id', '=', tenantId).where('prefix', '=', prefix).executeTakeFirst();
}
