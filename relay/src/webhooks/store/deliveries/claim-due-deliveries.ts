// Claims up to `limit` due deliveries for one worker under a lease longer than any request, so a crashed
// worker's claims come back; on PostgreSQL rows another process is claiming are skipped (SKIP LOCKED).
import type { Kysely } from 'kysely';
import type { DialectCapabilities } from '../../../db/capabilities.js';
import type { Database } from '../../../db/schema.js';
import type { DeliveryRow } from '../webhook-records.js';

export async function claimDueDeliveries(
  db: Kysely<Database>,
  capabilities: DialectCapabilities,
  claim: { now: string; leaseUntil: string; token: string; limit: number },
): Promise<DeliveryRow[]> {
  let due = db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', claim.now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', claim.now)]))
    .orderBy('next_attempt_at')
    .limit(claim.limit);
  if (capabilities.skipLocked) due = due.forUpdate().skipLocked();
  return db
    .updateTable('webhook_deliveries')
    .set({ claim_token: claim.token, claimed_until: claim.leaseUntil })
    .where('id', 'in', due)
    // Repeated so a row changed between the sub-select and the update is left alone.
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', claim.now)]))
    .returningAll()
    .execute();
}
