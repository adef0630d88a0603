// Records that these sessions were heard from, in one statement: only rows still owned by the session
// named are touched. Session ids are unique to one connector, so matching the two lists separately is
// the same as matching the pairs.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function touchConnectorSessions(db: Kysely<Database>, sessions: readonly { connectorId: string; sessionId: string }[], now: string): Promise<void> {
  if (sessions.length === 0) return;
  await db
    .updateTable('connectors')
    .set({ last_seen_at: now })
    .where('id', 'in', sessions.map((s) => s.connectorId))
    .where('session_id', 'in', sessions.map((s) => s.sessionId))
    .execute();
}
