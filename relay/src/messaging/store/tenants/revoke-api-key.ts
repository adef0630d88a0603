// Revokes a live API key; an already revoked one keeps its first revocation time.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function revokeApiKey(db: Kysely<Database>, prefix: string, at: string): Promise<void> {
  await db.updateTable('msg_api_keys').set({ revoked_at: at }).where('prefix', '=', prefix).where('revoked_at', 'is', null).execute();
}
