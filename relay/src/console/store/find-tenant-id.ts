// Whether a messaging tenant exists, read before a console search so an unknown tenant answers 404
// rather than an empty list.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export async function findTenantId(db: Kysely<Database>, tenantId: string): Promise<string | undefined> {
  const tenant = await db.selectFrom('msg_tenants').select('id').where('id', '=', tenantId).executeTakeFirst();
  return tenant?.id;
}
