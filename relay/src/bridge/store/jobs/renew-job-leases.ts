// Extends the leases of jobs one live session still holds, so a job waiting behind stalled books is
// neither handed back nor charged a retry; answers the job ids actually renewed.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function renewJobLeases(
  db: Kysely<Database>,
  held: { connectorId: string; sessionId: string; jobIds: readonly string[] },
  leaseExpiresAt: string,
  now: string,
): Promise<string[]> {
  const rows = await db
    .updateTable('transactions')
    .set({ lease_expires_at: leaseExpiresAt, updated_at: now })
    .where('connector_id', '=', held.connectorId)
    .where('status', '=', 'processing')
    .where('lease_session', '=', held.sessionId)
    .where('job_id', 'in', [...held.jobIds])
    .returning('job_id')
    .execute();
  return rows.map((row) => row.job_id);
}
