// Support's lookup: any application's session by id.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ConnectSessionRow } from './connect-session-row.js';

export function findConnectSessionById(db: Kysely<Database>, id: string): Promise<ConnectSessionRow | undefined> {
  return db.selectFrom('connect_sessions').selectAll().where('id', '=', id).executeTakeFirst();
}
