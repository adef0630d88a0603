// The relay's one webhook service, used by the messaging service (tenant status webhooks) and the
// accounting bridge (presence webhooks): endpoints per owner, publishing events into per-endpoint
// deliveries, test events, delivery history and redelivery. Sending is the delivery worker's job
// (webhook-delivery-worker.ts, run by webhook-delivery-loop.ts); `wake` nudges it after a publish.
import type { Kysely } from 'kysely';
import { WEBHOOK_TEST_EVENT_TYPE } from '@ledgerwire/shared';
import type { DialectCapabilities } from '../../db/capabilities.js';
import type { Database } from '../../db/schema.js';
import type { SecretBox } from '../../security/secret-box.js';
import { AppError } from '../../errors/catalogue.js';
import { WebhookDeliveryRepository } from '../store/webhook-delivery-repository.js';
import { WebhookEndpointRepository } from '../store/webhook-endpoint-repository.js';
import { newDeliveryRow, newEventRow, newWebhookId } from './webhook-outbox.js';
import {
  toDeliveryRecord,
  toEndpointRecord,
  type DeliveryRow,
  type EndpointRow,
  type WebhookDeliveryRecord,
  type WebhookEndpointRecord,
  type WebhookOwner,
} from '../store/webhook-records.js';
import { generateSigningSecret, parseRetiredSecrets, retireSecret } from './webhook-signing.js';
import { systemHostResolver, WebhookUrlPolicy, type HostResolver } from './webhook-url-policy.js';

export type { WebhookOwner } from '../store/webhook-records.js';

export type WebhookServiceDeps = Readonly<{
  db: Kysely<Database>;
  capabilities: DialectCapabilities;
  clock?: () => Date;
  allowPrivateUrls: boolean;
  eventTypes: Record<WebhookOwner['kind'], readonly string[]>;
  /** Seals signing secrets at rest (security/encryption-key.ts makes it from the config). */
  secretBox: SecretBox;
  wake?: () => void;
  /** DNS resolution for the URL check (tests point names at private addresses). */
  resolveHost?: HostResolver;
}>;

export type WebhookDeliveryDetail = Readonly<{
  delivery: WebhookDeliveryRecord;
  owner: WebhookOwner;
  endpoint_url: string;
  payload: string;
}>;

const MANUALLY_DISABLED = 'Disabled on request';
const MAX_PAGE = 100;

export class WebhookService {
  private readonly clock: () => Date;
  private readonly policy: WebhookUrlPolicy;

  constructor(private readonly deps: WebhookServiceDeps) {
    this.clock = deps.clock ?? (() => new Date());
    this.policy = new WebhookUrlPolicy({ allowPrivateUrls: deps.allowPrivateUrls, resolveHost: deps.resolveHost ?? systemHostResolver });
  }

  async createEndpoint(
    owner: WebhookOwner,
    input: { url: string; events?: string[] | undefined; description?: string | undefined },
  ): Promise<{ endpoint: WebhookEndpointRecord; secret: string }> {
    const url = await this.policy.acceptable(input.url);
    const events = this.checkedEvents(owner, input.events);
    const now = this.clock().toISOString();
    const secret = generateSigningSecret();
    const row: EndpointRow = {
      id: newWebhookId('wh_'),
      owner_kind: owner.kind,
      owner_id: owner.id,
      url,
      events: JSON.stringify(events),
      description: input.description ?? null,
      enabled: 1,
      disabled_reason: null,
      secret,
      retired_secrets: '[]',
      failing_since: null,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    await this.endpoints().insert(row);
    return { endpoint: toEndpointRecord(row), secret };
  }

  async listEndpoints(owner: WebhookOwner): Promise<WebhookEndpointRecord[]> {
    return (await this.endpoints().list(owner)).map(toEndpointRecord);
  }

  async getEndpoint(owner: WebhookOwner, endpointId: string): Promise<WebhookEndpointRecord> {
    return toEndpointRecord(await this.ownedEndpoint(owner, endpointId));
  }

  async updateEndpoint(
    owner: WebhookOwner,
    endpointId: string,
    patch: { url?: string | undefined; events?: string[] | undefined; description?: string | null | undefined; enabled?: boolean | undefined },
  ): Promise<WebhookEndpointRecord> {
    const current = await this.ownedEndpoint(owner, endpointId);
    const now = this.clock().toISOString();
    const changes: Partial<EndpointRow> = { updated_at: now };
    if (patch.url !== undefined) changes.url = await this.policy.acceptable(patch.url);
    if (patch.events !== undefined) changes.events = JSON.stringify(this.checkedEvents(owner, patch.events));
    if (patch.description !== undefined) changes.description = patch.description;
    if (patch.enabled === true && current.enabled !== 1) Object.assign(changes, { enabled: 1, disabled_reason: null, failing_since: null });
    if (patch.enabled === false && current.enabled === 1) Object.assign(changes, { enabled: 0, disabled_reason: MANUALLY_DISABLED });
    await this.deps.db.transaction().execute(async (trx) => {
      await new WebhookEndpointRepository(trx, this.deps.secretBox).update(current.id, changes);
      // A disabled endpoint receives nothing, so what was waiting for it will never go: cancel it now.
      if (changes.enabled === 0) await new WebhookDeliveryRepository(trx, this.deps.capabilities).cancelPending(current.id, now);
    });
    return toEndpointRecord({ ...current, ...changes });
  }

  async deleteEndpoint(owner: WebhookOwner, endpointId: string): Promise<void> {
    const current = await this.ownedEndpoint(owner, endpointId);
    const now = this.clock().toISOString();
    await this.deps.db.transaction().execute(async (trx) => {
      // The row stays for the delivery history; its key material does not.
      await new WebhookEndpointRepository(trx, this.deps.secretBox).update(current.id, {
        deleted_at: now,
        updated_at: now,
        enabled: 0,
        disabled_reason: 'Deleted',
        secret: '',
        retired_secrets: '[]',
      });
      await new WebhookDeliveryRepository(trx, this.deps.capabilities).cancelPending(current.id, now);
    });
  }

  /** A new secret; the old one keeps signing (a second signature) for 24 hours. */
  async rotateSecret(owner: WebhookOwner, endpointId: string): Promise<{ endpoint: WebhookEndpointRecord; secret: string }> {
    const current = await this.ownedEndpoint(owner, endpointId);
    const now = this.clock();
    const secret = generateSigningSecret();
    const changes = {
      secret,
      retired_secrets: JSON.stringify(retireSecret(current.secret, parseRetiredSecrets(current.retired_secrets), now)),
      updated_at: now.toISOString(),
    };
    // Conditional on the secret we read (its sealed form: retireSecret moves it as it is stored), so two
    // rotations at once cannot drop a secret from the overlap.
    if (!(await this.endpoints().replaceSecret(current.id, current.secret, changes))) {
      throw new AppError('conflict', { message: 'The webhook secret changed while rotating it; rotate again' });
    }
    return { endpoint: toEndpointRecord({ ...current, ...changes }), secret };
  }

  /** Queues a `webhook.test` event to this endpoint alone, whatever its event filter. */
  async sendTest(owner: WebhookOwner, endpointId: string): Promise<WebhookDeliveryRecord> {
    const endpoint = await this.ownedEndpoint(owner, endpointId);
    if (endpoint.enabled !== 1) throw new AppError('webhook_endpoint_disabled');
    const data = { endpoint_id: endpoint.id, message: 'A test event sent from the webhook settings.' };
    const { rows } = await this.queueEvent(owner, WEBHOOK_TEST_EVENT_TYPE, data, [endpoint]);
    return toDeliveryRecord(rows[0] as DeliveryRow, []);
  }

  async listDeliveries(
    owner: WebhookOwner,
    endpointId: string,
    page: { limit: number; offset: number },
  ): Promise<{ total: number; deliveries: WebhookDeliveryRecord[] }> {
    const endpoint = await this.ownedEndpoint(owner, endpointId);
    const limit = Math.min(Math.max(Math.trunc(page.limit), 1), MAX_PAGE);
    const offset = Math.max(Math.trunc(page.offset), 0);
    const deliveries = this.deliveries();
    const { total, rows } = await deliveries.listForEndpoint(endpoint.id, { limit, offset });
    const attempts = await deliveries.attemptsOf(rows.map((r) => r.id));
    return { total, deliveries: rows.map((row) => toDeliveryRecord(row, attempts.get(row.id) ?? [])) };
  }

  async getDelivery(owner: WebhookOwner, deliveryId: string): Promise<WebhookDeliveryRecord> {
    const row = await this.deliveries().find(deliveryId, owner);
    if (!row) throw new AppError('not_found', { message: `No webhook delivery ${deliveryId}` });
    return this.withAttempts(row);
  }

  /**
   * Sends the delivery's event again to its endpoint. A delivery still being retried is made due now;
   * a finished one gets a new delivery (new X-Service-Delivery, same event id), so history is kept.
   */
  async redeliver(owner: WebhookOwner, deliveryId: string): Promise<WebhookDeliveryRecord> {
    const row = await this.deliveries().find(deliveryId, owner);
    if (!row) throw new AppError('not_found', { message: `No webhook delivery ${deliveryId}` });
    const endpoint = await this.endpoints().find(owner, row.endpoint_id);
    if (!endpoint) throw new AppError('not_found', { message: `The endpoint of webhook delivery ${deliveryId} was deleted` });
    if (endpoint.enabled !== 1) throw new AppError('webhook_endpoint_disabled');
    const now = this.clock().toISOString();
    if (row.status === 'pending' && (await this.deliveries().makeDueNow(row.id, now))) {
      this.deps.wake?.();
      return this.withAttempts({ ...row, next_attempt_at: now });
    }
    const fresh: DeliveryRow = newDeliveryRow(row.event_id, row.event_type, owner, endpoint.id, now);
    await this.deliveries().insertDeliveries([fresh]);
    this.deps.wake?.();
    return toDeliveryRecord(fresh, []);
  }

  /** Queues the event for every enabled endpoint of the owner subscribed to its type; none → nothing is kept. */
  async publish(owner: WebhookOwner, event: { type: string; data: Record<string, unknown> }): Promise<{ event_id: string; deliveries: number }> {
    if (!this.deps.eventTypes[owner.kind].includes(event.type)) {
      // A programming error in the publishing service, not a client's: it must surface as a 500.
      throw new Error(`Unknown ${owner.kind} webhook event type "${event.type}"`);
    }
    const endpoints = await this.endpoints().listSubscribed(owner, event.type);
    if (endpoints.length === 0) return { event_id: newWebhookId('evt_'), deliveries: 0 };
    const { eventId, rows } = await this.queueEvent(owner, event.type, event.data, endpoints);
    return { event_id: eventId, deliveries: rows.length };
  }

  /** Operator view of any delivery (console support). */
  async getDeliveryForOperator(deliveryId: string): Promise<WebhookDeliveryDetail> {
    const row = await this.deliveries().find(deliveryId, undefined);
    if (!row) throw new AppError('not_found', { message: `No webhook delivery ${deliveryId}` });
    const endpoint = await this.endpoints().findById(row.endpoint_id);
    return {
      delivery: await this.withAttempts(row),
      owner: { kind: row.owner_kind as WebhookOwner['kind'], id: row.owner_id },
      endpoint_url: endpoint?.url ?? '',
      payload: (await this.deliveries().eventPayload(row.event_id)) ?? '',
    };
  }

  async redeliverForOperator(deliveryId: string): Promise<WebhookDeliveryDetail> {
    const row = await this.deliveries().find(deliveryId, undefined);
    if (!row) throw new AppError('not_found', { message: `No webhook delivery ${deliveryId}` });
    const again = await this.redeliver({ kind: row.owner_kind as WebhookOwner['kind'], id: row.owner_id }, deliveryId);
    return this.getDeliveryForOperator(again.id);
  }

  /**
   * Nudges the delivery worker: events were queued in another service's transaction (webhook-outbox.ts)
   * and have committed. Without it they still go, on the worker's next pass.
   */
  notifyQueued(): void {
    this.deps.wake?.();
  }

  private async queueEvent(owner: WebhookOwner, type: string, data: Record<string, unknown>, endpoints: readonly EndpointRow[]) {
    const now = this.clock().toISOString();
    const event = newEventRow(owner, type, data, now);
    const rows = endpoints.map((endpoint) => newDeliveryRow(event.id, type, owner, endpoint.id, now));
    await this.deps.db.transaction().execute(async (trx) => {
      const deliveries = new WebhookDeliveryRepository(trx, this.deps.capabilities);
      await deliveries.insertEvent(event);
      await deliveries.insertDeliveries(rows);
    });
    this.deps.wake?.();
    return { eventId: event.id, rows };
  }

  private checkedEvents(owner: WebhookOwner, requested: readonly string[] | undefined): string[] {
    const known = this.deps.eventTypes[owner.kind];
    if (requested === undefined) return [...known];
    const unknown = requested.filter((type) => !known.includes(type));
    if (requested.length === 0 || unknown.length > 0) {
      const why = requested.length === 0 ? 'must name at least one event type' : `has unknown event types: ${unknown.join(', ')}`;
      throw new AppError('webhook_events_invalid', {
        message: `The events list ${why}. Known types: ${known.join(', ')}`,
        details: [{ field: 'events', message: why }],
      });
    }
    return [...new Set(requested)];
  }

  private async ownedEndpoint(owner: WebhookOwner, endpointId: string): Promise<EndpointRow> {
    const row = await this.endpoints().find(owner, endpointId);
    if (!row) throw new AppError('not_found', { message: `No webhook endpoint ${endpointId}` });
    return row;
  }

  private async withAttempts(row: DeliveryRow): Promise<WebhookDeliveryRecord> {
    const attempts = await this.deliveries().attemptsOf([row.id]);
    return toDeliveryRecord(row, attempts.get(row.id) ?? []);
  }

  private endpoints(): WebhookEndpointRepository {
    return new WebhookEndpointRepository(this.deps.db, this.deps.secretBox);
  }

  private deliveries(): WebhookDeliveryRepository {
    return new WebhookDeliveryRepository(this.deps.db, this.deps.capabilities);
  }
}
