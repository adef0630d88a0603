// Webhook events queued inside the caller's own database transaction (a transactional outbox): the
// event rows and their deliveries commit or roll back with the state change they announce. A crash
// between the change and its event cannot lose the event, a rolled-back change raises none, and a
// repeated report that changes nothing raises nothing again — so each change is announced once. The
// delivery worker sends them like any other; call WebhookService.notifyQueued() after the commit to
// send at once rather than on the worker's next pass.
// Also the one place event and delivery rows are made, for WebhookService's own publish.
import type { Insertable, Kysely } from 'kysely';
import { WEBHOOK_EVENT_TYPES } from '@ledgerwire/shared';
import type { Database, WebhookDeliveriesTable, WebhookEventsTable } from '../../db/schema.js';
import { uuidV7Hex } from '../../db/time-ordered-ids.js';
import { parseEventList, type DeliveryRow, type EndpointRow, type WebhookOwner } from '../store/webhook-records.js';
import { insertOutboxRows } from '../store/outbox/insert-outbox-rows.js';
import { listEnabledEndpointsOfOwners } from '../store/outbox/list-enabled-endpoints-of-owners.js';

export type OutboxEvent = Readonly<{ owner: WebhookOwner; type: string; data: Record<string, unknown> }>;

/** `<prefix>` + 32 hex digits, time first (db/time-ordered-ids.ts): event and delivery rows are written a batch at a time. */
export function newWebhookId(prefix: string): string {
  return `${prefix}${uuidV7Hex()}`;
}

/** The event row: its payload is the exact JSON body every delivery of it sends and signs. */
export function newEventRow(owner: WebhookOwner, type: string, data: Record<string, unknown>, now: string): Insertable<WebhookEventsTable> & { id: string } {
  const id = newWebhookId('evt_');
  return { id, owner_kind: owner.kind, owner_id: owner.id, type, payload: JSON.stringify({ event_id: id, type, created_at: now, data }), created_at: now };
}

export function newDeliveryRow(eventId: string, type: string, owner: WebhookOwner, endpointId: string, now: string): DeliveryRow {
  return {
    id: newWebhookId('dlv_'),
    event_id: eventId,
    endpoint_id: endpointId,
    owner_kind: owner.kind,
    owner_id: owner.id,
    event_type: type,
    status: 'pending',
    attempt_count: 0,
    next_attempt_at: now,
    claim_token: null,
    claimed_until: null,
    created_at: now,
    updated_at: now,
  };
}

function ownerKey(owner: WebhookOwner): string {
  return `${owner.kind}\u0000${owner.id}`;
}

/** Enabled endpoints of these owners, by owner: one query for all of them. */
async function enabledEndpointsOf(db: Kysely<Database>, owners: readonly WebhookOwner[]): Promise<Map<string, EndpointRow[]>> {
  const byOwner = new Map<string, EndpointRow[]>();
  const kinds = [...new Set(owners.map((owner) => owner.kind))];
  const ids = [...new Set(owners.map((owner) => owner.id))];
  const rows = await listEnabledEndpointsOfOwners(db, kinds, ids);
  for (const row of rows) {
    const key = ownerKey({ kind: row.owner_kind as WebhookOwner['kind'], id: row.owner_id });
    byOwner.set(key, [...(byOwner.get(key) ?? []), row]);
  }
  return byOwner;
}

/** Whether any enabled endpoint of these owners subscribes to one of `types` (one query; none for no owners). */
export async function anySubscribed(db: Kysely<Database>, owners: readonly WebhookOwner[], types: readonly string[]): Promise<boolean> {
  if (owners.length === 0) return false;
  const endpoints = await enabledEndpointsOf(db, owners);
  return owners.some((owner) => (endpoints.get(ownerKey(owner)) ?? []).some((row) => parseEventList(row.events).some((type) => types.includes(type))));
}

/**
 * Queues each event for every enabled endpoint of its owner subscribed to its type, in the caller's
 * transaction `trx`; an event no endpoint wants is not kept (contract: not queued for a later endpoint).
 * Returns the number of deliveries queued.
 */
export async function queueEventsInTransaction(trx: Kysely<Database>, events: readonly OutboxEvent[], now: string): Promise<number> {
  for (const event of events) {
    if (!(WEBHOOK_EVENT_TYPES[event.owner.kind] as readonly string[]).includes(event.type)) {
      // A programming error in the publishing service, not a client's: it must surface as a 500.
      throw new Error(`Unknown ${event.owner.kind} webhook event type "${event.type}"`);
    }
  }
  if (events.length === 0) return 0;
  const endpoints = await enabledEndpointsOf(trx, events.map((event) => event.owner));
  const eventRows: Insertable<WebhookEventsTable>[] = [];
  const deliveryRows: Insertable<WebhookDeliveriesTable>[] = [];
  for (const event of events) {
    const subscribed = (endpoints.get(ownerKey(event.owner)) ?? []).filter((row) => parseEventList(row.events).includes(event.type));
    if (subscribed.length === 0) continue;
    const row = newEventRow(event.owner, event.type, event.data, now);
    eventRows.push(row);
    for (const endpoint of subscribed) deliveryRows.push(newDeliveryRow(row.id, event.type, event.owner, endpoint.id, now));
  }
  await insertOutboxRows(trx, eventRows, deliveryRows);
  return deliveryRows.length;
}
