// Closes many sessions in one statement (a relay process shutting down), matching the two lists
// separately as touch-connector-sessions.ts does: session ids are unique to one connector.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function closeConnectorSessions(db: Kysely<Database>, sessions: readonly { connectorId: string; sessionId: string }[], now: string): Promise<void> {
  if (sessions.length === 0) return;
  await db
    .updateTable('connectors')
    .set({ connected: 0, disconnected_at: now, updated_at: now })
    .where('id', 'in', sessions.map((s) => s.connectorId))
    .where('session_id', 'in', sessions.map((s) => s.sessionId))
    .where('connected', '=', 1)
    .execute();
}
