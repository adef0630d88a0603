// The session that owns the connector now (the latest hello on any relay process), so an older one
// knows it was replaced.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function findCurrentSession(db: Kysely<Database>, connectorId: string): Promise<string | null> {
  const row = await db.selectFrom('connectors').select('session_id').where('id', '=', connectorId).executeTakeFirst();
  return row?.session_id ?? null;
}
