// The owning session of many connectors in one read (a relay process checks all its sockets at once).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function listCurrentSessions(db: Kysely<Database>, connectorIds: readonly string[]): Promise<Map<string, string | null>> {
  if (connectorIds.length === 0) return new Map();
  const rows = await db.selectFrom('connectors').select(['id', 'session_id']).where('id', 'in', [...connectorIds]).execute();
  return new Map(rows.map((row) => [row.id, row.session_id]));
}
