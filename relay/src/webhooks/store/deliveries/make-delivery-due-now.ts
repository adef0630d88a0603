// A manual redelivery of a delivery still being retried: it becomes due now instead of at its backoff.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function makeDeliveryDueNow(db: Kysely<Database>, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
