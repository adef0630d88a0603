// Records one attempt of a claimed delivery and its new state. If the delivery was cancelled while the
// request was in flight (endpoint deleted or disabled), the attempt is kept and the cancellation stands.
import type { Insertable, Kysely } from 'kysely';
import type { Database, WebhookAttemptsTable } from '../../../db/schema.js';
import type { DeliveryRow, WebhookAttemptRecord, WebhookDeliveryStatus } from '../webhook-records.js';

/** One attempt as it ended, with the id its row is stored under. */
export type FinishedAttempt = WebhookAttemptRecord & Readonly<{ id: string }>;

export async function recordDeliveryAttempt(
  db: Kysely<Database>,
  delivery: DeliveryRow,
  token: string,
  attempt: FinishedAttempt,
  status: WebhookDeliveryStatus,
): Promise<void> {
  const row: Insertable<WebhookAttemptsTable> = { ...attempt, delivery_id: delivery.id, attempt_number: delivery.attempt_count + 1 };
  await db.insertInto('webhook_attempts').values(row).execute();
  const moved = await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      attempt_count: eb('attempt_count', '+', 1),
      status,
      next_attempt_at: attempt.next_attempt_at,
      claim_token: null,
      claimed_until: null,
      updated_at: attempt.attempted_at,
    }))
    .where('id', '=', delivery.id)
    .where('claim_token', '=', token)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) > 0) return;
  await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({ attempt_count: eb('attempt_count', '+', 1), claim_token: null, claimed_until: null }))
    .where('id', '=', delivery.id)
    .where('claim_token', '=', token)
    .execute();
}
