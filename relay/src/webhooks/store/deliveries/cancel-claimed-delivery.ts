// Gives a claimed delivery back untried because its endpoint can no longer receive it: cancelled, and
// only while this worker's claim token still holds it.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function cancelClaimedDelivery(db: Kysely<Database>, id: string, token: string, now: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'cancelled', next_attempt_at: null, claim_token: null, claimed_until: null, updated_at: now })
    .where('id', '=', id)
    .where('claim_token', '=', token)
    .execute();
}
