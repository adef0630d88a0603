// Cancels every unfinished delivery of an endpoint (it was disabled or deleted); answers how many.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function cancelPendingDeliveries(db: Kysely<Database>, endpointId: string, now: string): Promise<number> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'cancelled', next_attempt_at: null, updated_at: now })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
