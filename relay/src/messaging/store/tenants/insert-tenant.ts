// Stores a new messaging tenant (operator provisioning); the row comes complete from the tenant service.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { TenantRow } from './tenant-rows.js';

export async function insertTenant(db: Kysely<Database>, row: TenantRow): Promise<void> {
  await db.insertInto('msg_tenants').values(row).execute();
}
