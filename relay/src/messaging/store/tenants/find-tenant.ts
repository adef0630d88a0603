// One tenant by its id, for admin reads and the services that act on a known tenant.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { TenantRow } from './tenant-rows.js';

export function findTenant(db: Kysely<Database>, id: string): Promise<TenantRow | undefined> {
  return db.selectFrom('msg_tenants').selectAll().where('id', '=', id).executeTakeFirst();
}
