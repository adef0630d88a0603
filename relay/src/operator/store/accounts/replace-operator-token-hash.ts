// Rotation's write: replaces the digest of an active account; false when it is revoked or absent, so a
// revoked account cannot be brought back by rotating.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function replaceOperatorTokenHash(db: Kysely<Database>, id: string, tokenHash: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('operator_accounts')
    .set({ token_hash: tokenHash, token_rotated_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
