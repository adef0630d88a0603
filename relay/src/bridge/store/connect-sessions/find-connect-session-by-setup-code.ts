// The session a setup code belongs to, found by the code's hash (codes are never stored in clear).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ConnectSessionRow } from './connect-session-row.js';

export function findConnectSessionBySetupCodeHash(db: Kysely<Database>, hash: string): Promise<ConnectSessionRow | undefined> {
  return db.selectFrom('connect_sessions').selectAll().where('setup_code_hash', '=', hash).executeTakeFirst();
}
