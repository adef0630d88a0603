// Settles an event (processed or failed) with its result and releases its lease; with no next
// attempt it is never claimed again.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function finishEvent(db: Kysely<Database>, id: string, status: 'processed' | 'failed', result: unknown, at: string): Promise<void> {
  await db
    .updateTable('msg_events')
    .set({ status, result: JSON.stringify(result), processed_at: at, lease_until: null, next_attempt_at: null })
    .where('id', '=', id)
    .execute();
}
