// The tenant of an organisation: a tenant belongs to exactly one org, so provisioning can refuse a second.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { TenantRow } from './tenant-rows.js';

export function findTenantByOrgId(db: Kysely<Database>, orgId: number): Promise<TenantRow | undefined> {
  return db.selectFrom('msg_tenants').selectAll().where('org_id', '=', orgId).executeTakeFirst();
}
