// Every tenant, oldest first (ties by id), so admin listings are stable between calls.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { TenantRow } from './tenant-rows.js';

export function listTenants(db: Kysely<Database>): Promise<TenantRow[]> {
  return db.selectFrom('msg_tenants').selectAll().orderBy('created_at').orderBy('id').execute();
}
