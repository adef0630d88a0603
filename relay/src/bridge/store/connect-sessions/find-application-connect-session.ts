// A session by id within its application: another application's session reads as not found.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ConnectSessionRow } from './connect-session-row.js';

export function findApplicationConnectSession(db: Kysely<Database>, applicationId: string, id: string): Promise<ConnectSessionRow | undefined> {
  return db.selectFrom('connect_sessions').selectAll().where('id', '=', id).where('application_id', '=', applicationId).executeTakeFirst();
}
