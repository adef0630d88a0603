// The session's socket closed; false when a newer session owns the connector already (it stays open).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function closeConnectorSession(db: Kysely<Database>, connectorId: string, sessionId: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('connectors')
    .set({ connected: 0, disconnected_at: now, updated_at: now })
    .where('id', '=', connectorId)
    .where('session_id', '=', sessionId)
    .where('connected', '=', 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
