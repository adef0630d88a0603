// Changes a tenant's settings (name, limits, status); its id and creation time never change.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { TenantRow } from './tenant-rows.js';

export async function updateTenant(db: Kysely<Database>, id: string, changes: Partial<Omit<TenantRow, 'id' | 'created_at'>>): Promise<void> {
  await db.updateTable('msg_tenants').set(changes).where('id', '=', id).execute();
}
