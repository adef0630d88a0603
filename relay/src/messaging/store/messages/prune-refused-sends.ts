// Deletes refused-send notes older than `before`: they are kept only for a few days, so the table
// stays small however many sends are refused.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function pruneRefusedSends(db: Kysely<Database>, before: string): Promise<void> {
  await db.deleteFrom('msg_refused_sends').where('refused_at', '<', before).execute();
}
