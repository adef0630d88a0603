// Webhook events, deliveries and attempts. A delivery row is the queue entry: `pending` with a
// `next_attempt_at`; a worker claims due rows by writing its claim token and a lease, sends, then records
// the attempt and the new state under the same token. On PostgreSQL the claim skips rows another relay
// process is claiming (FOR UPDATE SKIP LOCKED); SQLite has a single writer, so its claim is atomic anyway.
// Each method runs one operation of store/deliveries/.
import type { Insertable, Kysely } from 'kysely';
import type { DialectCapabilities } from '../../db/capabilities.js';
import type { Database, WebhookDeliveriesTable, WebhookEventsTable } from '../../db/schema.js';
import type { AttemptRow, DeliveryRow, WebhookDeliveryStatus, WebhookOwner } from './webhook-records.js';
import { cancelClaimedDelivery } from './deliveries/cancel-claimed-delivery.js';
import { cancelPendingDeliveries } from './deliveries/cancel-pending-deliveries.js';
import { claimDueDeliveries } from './deliveries/claim-due-deliveries.js';
import { findDelivery } from './deliveries/find-delivery.js';
import { findWebhookEventPayload } from './deliveries/find-webhook-event-payload.js';
import { insertWebhookDeliveries } from './deliveries/insert-webhook-deliveries.js';
import { insertWebhookEvent } from './deliveries/insert-webhook-event.js';
import { listDeliveryAttempts } from './deliveries/list-delivery-attempts.js';
import { listEndpointDeliveries } from './deliveries/list-endpoint-deliveries.js';
import { makeDeliveryDueNow } from './deliveries/make-delivery-due-now.js';
import { recordDeliveryAttempt, type FinishedAttempt } from './deliveries/record-delivery-attempt.js';

export type { FinishedAttempt } from './deliveries/record-delivery-attempt.js';

export class WebhookDeliveryRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly capabilities: DialectCapabilities,
  ) {}

  insertEvent(row: Insertable<WebhookEventsTable>): Promise<void> {
    return insertWebhookEvent(this.db, row);
  }

  insertDeliveries(rows: Insertable<WebhookDeliveriesTable>[]): Promise<void> {
    return insertWebhookDeliveries(this.db, rows);
  }

  eventPayload(eventId: string): Promise<string | undefined> {
    return findWebhookEventPayload(this.db, eventId);
  }

  /** Cancels every delivery of the endpoint that has not finished. */
  cancelPending(endpointId: string, now: string): Promise<number> {
    return cancelPendingDeliveries(this.db, endpointId, now);
  }

  /** A delivery by id; scoped to an owner unless the caller is the operator (owner undefined). */
  find(id: string, owner: WebhookOwner | undefined): Promise<DeliveryRow | undefined> {
    return findDelivery(this.db, id, owner);
  }

  listForEndpoint(endpointId: string, page: { limit: number; offset: number }): Promise<{ total: number; rows: DeliveryRow[] }> {
    return listEndpointDeliveries(this.db, endpointId, page);
  }

  attemptsOf(deliveryIds: readonly string[]): Promise<Map<string, AttemptRow[]>> {
    return listDeliveryAttempts(this.db, deliveryIds);
  }

  /** Makes a pending delivery due now (a manual redelivery of one still being retried). */
  makeDueNow(id: string, now: string): Promise<boolean> {
    return makeDeliveryDueNow(this.db, id, now);
  }

  /**
   * Claims up to `limit` due deliveries for one worker: they stay invisible to other workers until the
   * lease ends, which is longer than any request may take, so a crashed worker's claims come back.
   */
  claimDue(claim: { now: string; leaseUntil: string; token: string; limit: number }): Promise<DeliveryRow[]> {
    return claimDueDeliveries(this.db, this.capabilities, claim);
  }

  /** Gives a claimed delivery back untried (its endpoint can no longer receive it): cancelled. */
  cancelClaimed(id: string, token: string, now: string): Promise<void> {
    return cancelClaimedDelivery(this.db, id, token, now);
  }

  /**
   * Records one attempt of a claimed delivery and its new state. If the delivery was cancelled while the
   * request was in flight (endpoint deleted or disabled), the attempt is kept and the cancellation stands.
   */
  finishAttempt(delivery: DeliveryRow, token: string, attempt: FinishedAttempt, status: WebhookDeliveryStatus): Promise<void> {
    return recordDeliveryAttempt(this.db, delivery, token, attempt, status);
  }
}
