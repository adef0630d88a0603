// The session a connect page's token opens, found by the token's hash (tokens are never stored in clear).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ConnectSessionRow } from './connect-session-row.js';

export function findConnectSessionByPageTokenHash(db: Kysely<Database>, hash: string): Promise<ConnectSessionRow | undefined> {
  return db.selectFrom('connect_sessions').selectAll().where('page_token_hash', '=', hash).executeTakeFirst();
}
