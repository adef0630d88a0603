// The active account holding this token digest: read on every operator request and never cached, so a
// rotation or revocation counts on every relay process from the next request.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { OperatorAccountRow } from './operator-account-row.js';

export async function findActiveOperatorByTokenHash(db: Kysely<Database>, tokenHash: string): Promise<OperatorAccountRow | undefined> {
  return db.selectFrom('operator_accounts').selectAll().where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).executeTakeFirst();
}
