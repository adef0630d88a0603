// Stores a new connect session (pending, with its setup code and page token hashes).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ConnectSessionRow } from './connect-session-row.js';

export async function insertConnectSession(db: Kysely<Database>, row: ConnectSessionRow): Promise<void> {
  await db.insertInto('connect_sessions').values(row).execute();
}
