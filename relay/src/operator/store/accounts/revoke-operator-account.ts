// Marks the account revoked; idempotent, so the first revocation time stays.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function revokeOperatorAccount(db: Kysely<Database>, id: string, at: string): Promise<void> {
  await db.updateTable('operator_accounts').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}
