// Cancels a session still under way; a completed, cancelled or expired one stays as it is.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function cancelConnectSession(db: Kysely<Database>, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('connect_sessions')
    .set({ status: 'cancelled', cancelled_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'connector_enrolled'])
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
