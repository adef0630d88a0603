// A session said hello: from now on it owns the connector (the latest hello on any relay process wins).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { openedColumns, type SessionOpening } from './opened-session-columns.js';

export async function openConnectorSession(db: Kysely<Database>, connectorId: string, sessionId: string, input: SessionOpening): Promise<void> {
  await db.updateTable('connectors').set(openedColumns(sessionId, input)).where('id', '=', connectorId).execute();
}
