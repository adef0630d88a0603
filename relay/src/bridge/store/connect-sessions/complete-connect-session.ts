// Completes an enrolled, unexpired session once; run in the transaction that queues its webhook event.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function completeConnectSession(executor: Kysely<Database>, id: string, now: string): Promise<boolean> {
  const result = await executor
    .updateTable('connect_sessions')
    .set({ status: 'completed', completed_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'connector_enrolled')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
