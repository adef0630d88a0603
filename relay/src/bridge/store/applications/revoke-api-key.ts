// Marks a key revoked at `revokedAt`; a key already revoked keeps its first revocation time.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function revokeApiKey(db: Kysely<Database>, keyId: string, revokedAt: string): Promise<void> {
  await db.updateTable('bridge_api_keys').set({ revoked_at: revokedAt }).where('key_id', '=', keyId).where('revoked_at', 'is', null).execute();
}
