// SQL for webhook events, deliveries and attempts. A delivery row is the queue entry: `pending` with a
// `next_attempt_at`; a worker claims due rows by writing its claim token and a lease, sends, then records
// the attempt and the new state under the same token. On PostgreSQL the claim skips rows another relay
// process is claiming (FOR UPDATE SKIP LOCKED); SQLite has a single writer, so its claim is atomic anyway.
import type { Insertable, Kysely } from 'kysely';
import type { DialectCapabilities } from '../db/capabilities.js';
import type { Database, WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEventsTable } from '../db/schema.js';
import type { AttemptRow, DeliveryRow, WebhookDeliveryStatus, WebhookOwner } from './webhook-records.js';

export type FinishedAttempt = Readonly<{
  id: string;
  attempted_at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  next_attempt_at: string | null;
  /** The start of the receiver's answer (0270-webhook-attempt-responses). */
  response_body: string | null;
}>;

export class WebhookDeliveryRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly capabilities: DialectCapabilities,
  ) {}

  async insertEvent(row: Insertable<WebhookEventsTable>): Promise<void> {
    await this.db.insertInto('webhook_events').values(row).execute();
  }

  async insertDeliveries(rows: Insertable<WebhookDeliveriesTable>[]): Promise<void> {
    if (rows.length > 0) await this.db.insertInto('webhook_deliveries').values(rows).execute();
  }

  async eventPayload(eventId: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('webhook_events').select('payload').where('id', '=', eventId).executeTakeFirst();
    return row?.payload;
  }

  /** Cancels every delivery of the endpoint that has not finished. */
  async cancelPending(endpointId: string, now: string): Promise<number> {
    const result = await this.db
      .updateTable('webhook_deliveries')
      .set({ status: 'cancelled', next_attempt_at: null, updated_at: now })
      .where('endpoint_id', '=', endpointId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** A delivery by id; scoped to an owner unless the caller is the operator (owner undefined). */
  async find(id: string, owner: WebhookOwner | undefined): Promise<DeliveryRow | undefined> {
    let query = this.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id);
    if (owner) query = query.where('owner_kind', '=', owner.kind).where('owner_id', '=', owner.id);
    return query.executeTakeFirst();
  }

  async listForEndpoint(endpointId: string, page: { limit: number; offset: number }): Promise<{ total: number; rows: DeliveryRow[] }> {
    const counted = await this.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where('endpoint_id', '=', endpointId)
      .executeTakeFirstOrThrow();
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('endpoint_id', '=', endpointId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return { total: Number(counted.total), rows };
  }

  async attemptsOf(deliveryIds: readonly string[]): Promise<Map<string, AttemptRow[]>> {
    const byDelivery = new Map<string, AttemptRow[]>();
    if (deliveryIds.length === 0) return byDelivery;
    const rows = await this.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('delivery_id', 'in', [...deliveryIds])
      .orderBy('attempt_number')
      .execute();
    for (const row of rows) {
      const list = byDelivery.get(row.delivery_id) ?? [];
      list.push(row);
      byDelivery.set(row.delivery_id, list);
    }
    return byDelivery;
  }

  /** Makes a pending delivery due now (a manual redelivery of one still being retried). */
  async makeDueNow(id: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: now, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Claims up to `limit` due deliveries for one worker: they stay invisible to other workers until the
   * lease ends, which is longer than any request may take, so a crashed worker's claims come back.
   */
  async claimDue(claim: { now: string; leaseUntil: string; token: string; limit: number }): Promise<DeliveryRow[]> {
    let due = this.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', claim.now)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', claim.now)]))
      .orderBy('next_attempt_at')
      .limit(claim.limit);
    if (this.capabilities.skipLocked) due = due.forUpdate().skipLocked();
    return this.db
      .updateTable('webhook_deliveries')
      .set({ claim_token: claim.token, claimed_until: claim.leaseUntil })
      .where('id', 'in', due)
      // Repeated so a row changed between the sub-select and the update is left alone.
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', claim.now)]))
      .returningAll()
      .execute();
  }

  /** Gives a claimed delivery back untried (its endpoint can no longer receive it): cancelled. */
  async cancelClaimed(id: string, token: string, now: string): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set({ status: 'cancelled', next_attempt_at: null, claim_token: null, claimed_until: null, updated_at: now })
      .where('id', '=', id)
      .where('claim_token', '=', token)
      .execute();
  }

  /**
   * Records one attempt of a claimed delivery and its new state. If the delivery was cancelled while the
   * request was in flight (endpoint deleted or disabled), the attempt is kept and the cancellation stands.
   */
  async finishAttempt(delivery: DeliveryRow, token: string, attempt: FinishedAttempt, status: WebhookDeliveryStatus): Promise<void> {
    const row: Insertable<WebhookAttemptsTable> = { ...attempt, delivery_id: delivery.id, attempt_number: delivery.attempt_count + 1 };
    await this.db.insertInto('webhook_attempts').values(row).execute();
    const moved = await this.db
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
    await this.db
      .updateTable('webhook_deliveries')
      .set((eb) => ({ attempt_count: eb('attempt_count', '+', 1), claim_token: null, claimed_until: null }))
      .where('id', '=', delivery.id)
      .where('claim_token', '=', token)
      .execute();
  }
}
