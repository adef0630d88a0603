// Leaves an event pending for a later attempt (its tenant was over its message limits) and releases
// its lease, keeping the results so far.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function deferEvent(db: Kysely<Database>, id: string, nextAttemptAt: string, result: unknown): Promise<void> {
  await db
    .updateTable('msg_events')
    .set({ next_attempt_at: nextAttemptAt, lease_until: null, result: JSON.stringify(result) })
    .where('id', '=', id)
    .execute();
}
