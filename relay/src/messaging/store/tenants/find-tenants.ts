// Several tenants in one query (a dispatch claim's or a webhook batch's), so a batch does not cost a lookup per tenant.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { TenantRow } from './tenant-rows.js';

export function findTenants(db: Kysely<Database>, ids: readonly string[]): Promise<TenantRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('msg_tenants').selectAll().where('id', 'in', ids).execute();
}
