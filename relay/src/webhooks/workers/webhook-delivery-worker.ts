// Sends due webhook deliveries: claims a batch, signs each body with the endpoint's valid secrets, POSTs
// it, and records the attempt with what comes next (success, a retry on the schedule, or failure).
// Only an endpoint that still exists and is enabled receives anything. An endpoint that has failed for
// 5 days without a single success, or that answers 410 Gone, is disabled and its queue cancelled.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DialectCapabilities } from '../../db/capabilities.js';
import type { Database } from '../../db/schema.js';
import { SecretUnreadableError, type SecretBox } from '../../security/secret-box.js';
import { RELAY_VERSION } from '../../version.js';
import { WebhookDeliveryRepository } from '../store/webhook-delivery-repository.js';
import { WebhookEndpointRepository } from '../store/webhook-endpoint-repository.js';
import { postWebhook, type SendOutcome } from './webhook-http-sender.js';
import type { DeliveryRow, EndpointRow, WebhookDeliveryStatus } from '../store/webhook-records.js';
import { nextAttemptAt, parseRetryAfter } from '../services/webhook-retry-schedule.js';
import { signatureHeader, signingSecrets } from '../services/webhook-signing.js';
import { systemHostResolver, WebhookUrlPolicy, type HostResolver } from '../services/webhook-url-policy.js';

/** A receiver has this long to answer (DESIGN: 10 s). */
export const WEBHOOK_REQUEST_TIMEOUT_MS = 10_000;
/** Continuous failure for this long disables an endpoint (Svix: 5 days). */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 60 * 60 * 1000;
const USER_AGENT = `Ledgerwire-Webhooks/${RELAY_VERSION}`;

export type WebhookWorkerLog = Readonly<{ warn(context: object, message: string): void }>;

export type WebhookDeliveryWorkerDeps = Readonly<{
  db: Kysely<Database>;
  capabilities: DialectCapabilities;
  clock?: () => Date;
  allowPrivateUrls: boolean;
  /** Opens the endpoints' sealed signing secrets. */
  secretBox: SecretBox;
  resolveHost?: HostResolver;
  requestTimeoutMs?: number;
  /** In [0, 1): the retry jitter's source (tests fix it). */
  random?: () => number;
  batchSize?: number;
  log?: WebhookWorkerLog;
}>;

export class WebhookDeliveryWorker {
  readonly batchSize: number;
  private readonly clock: () => Date;
  private readonly timeoutMs: number;
  private readonly random: () => number;
  private readonly policy: WebhookUrlPolicy;

  constructor(private readonly deps: WebhookDeliveryWorkerDeps) {
    this.batchSize = deps.batchSize ?? 20;
    this.clock = deps.clock ?? (() => new Date());
    this.timeoutMs = deps.requestTimeoutMs ?? WEBHOOK_REQUEST_TIMEOUT_MS;
    this.random = deps.random ?? Math.random;
    this.policy = new WebhookUrlPolicy({ allowPrivateUrls: deps.allowPrivateUrls, resolveHost: deps.resolveHost ?? systemHostResolver });
  }

  /** Claims and sends one batch of due deliveries; returns how many were claimed. */
  async deliverDue(): Promise<number> {
    const now = this.clock();
    const token = `clm_${randomUUID()}`;
    // The lease outlasts the longest request by a wide margin; it only matters if this process dies.
    const leaseUntil = new Date(now.getTime() + this.timeoutMs + 60_000).toISOString();
    const claimed = await new WebhookDeliveryRepository(this.deps.db, this.deps.capabilities).claimDue({
      now: now.toISOString(),
      leaseUntil,
      token,
      limit: this.batchSize,
    });
    // One endpoint's deliveries go out one after another, oldest first, so a receiver sees events in
    // the order they happened (connector.offline after connector.online); endpoints run in parallel.
    // allSettled: a pass ends only when every send it started has been recorded (stop() relies on it).
    const results = await Promise.allSettled(
      [...groupByEndpoint(claimed).values()].map(async (queue) => {
        for (const delivery of queue) await this.deliverOne(delivery, token);
      }),
    );
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) throw failure.reason;
    return claimed.length;
  }

  private async deliverOne(delivery: DeliveryRow, token: string): Promise<void> {
    const deliveries = new WebhookDeliveryRepository(this.deps.db, this.deps.capabilities);
    const endpoint = await new WebhookEndpointRepository(this.deps.db, this.deps.secretBox).findById(delivery.endpoint_id);
    const payload = await deliveries.eventPayload(delivery.event_id);
    const now = this.clock();
    const receivable =
      endpoint !== undefined &&
      endpoint.deleted_at === null &&
      endpoint.enabled === 1 &&
      endpoint.owner_kind === delivery.owner_kind &&
      endpoint.owner_id === delivery.owner_id;
    if (!receivable || payload === undefined) {
      await deliveries.cancelClaimed(delivery.id, token, now.toISOString());
      return;
    }
    const outcome = await this.send(endpoint, delivery, payload, now);
    await this.record(endpoint, delivery, token, outcome, now);
  }

  private async send(endpoint: EndpointRow, delivery: DeliveryRow, payload: string, now: Date): Promise<SendOutcome> {
    const url = new URL(endpoint.url);
    const problem = this.policy.staticProblem(url);
    if (problem) return { statusCode: null, durationMs: 0, error: `Refused: the webhook URL ${problem}`, retryAfter: undefined, responseBody: null };
    let secrets: string[];
    try {
      const opened = new WebhookEndpointRepository(this.deps.db, this.deps.secretBox).openSecrets(endpoint);
      secrets = signingSecrets(opened.secret, opened.retired, now);
    } catch (error) {
      if (!(error instanceof SecretUnreadableError)) throw error;
      // Never sent unsigned: the attempt fails with the reason, and retries on the schedule (a relay
      // holding the right key, or this one once its key is fixed, delivers it).
      this.deps.log?.warn({ endpoint_id: endpoint.id, delivery_id: delivery.id, reason: error.message }, 'webhook not sent: its signing secret cannot be decrypted');
      return { statusCode: null, durationMs: 0, error: `Not sent: ${error.message}`, retryAfter: undefined, responseBody: null };
    }
    return postWebhook({
      url,
      body: payload,
      timeoutMs: this.timeoutMs,
      lookup: this.policy.socketLookup(),
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        // webhook-id is the event id: the same on every retry and redelivery, as Standard Webhooks asks.
        'webhook-id': delivery.event_id,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signatureHeader(secrets, delivery.event_id, now, payload),
        'x-service-delivery': delivery.id,
      },
    });
  }

  private async record(endpoint: EndpointRow, delivery: DeliveryRow, token: string, outcome: SendOutcome, now: Date): Promise<void> {
    const nowIso = now.toISOString();
    const succeeded = outcome.error === null;
    const disabledReason = await this.deps.db.transaction().execute(async (trx) => {
      const endpoints = new WebhookEndpointRepository(trx, this.deps.secretBox);
      const deliveries = new WebhookDeliveryRepository(trx, this.deps.capabilities);
      let reason: string | null = null;
      if (succeeded) {
        await endpoints.markHealthy(endpoint.id);
      } else {
        const failingSince = await endpoints.markFailing(endpoint.id, nowIso);
        if (outcome.statusCode === 410) reason = 'The receiver answered 410 Gone';
        else if (failingSince !== null && now.getTime() - Date.parse(failingSince) >= DISABLE_AFTER_FAILING_MS) {
          reason = `Every delivery failed for 5 days (failing since ${failingSince})`;
        }
      }
      const next = succeeded || reason !== null ? null : nextAttemptAt(delivery.attempt_count + 1, now, this.random, parseRetryAfter(outcome.retryAfter, now));
      const status: WebhookDeliveryStatus = succeeded ? 'succeeded' : next ? 'pending' : 'failed';
      await deliveries.finishAttempt(
        delivery,
        token,
        {
          id: `att_${randomUUID().replaceAll('-', '')}`,
          attempted_at: nowIso,
          status_code: outcome.statusCode,
          duration_ms: outcome.durationMs,
          error: outcome.error,
          next_attempt_at: next?.toISOString() ?? null,
          response_body: outcome.responseBody,
        },
        status,
      );
      if (reason !== null && (await endpoints.disable(endpoint.id, reason, nowIso))) {
        await deliveries.cancelPending(endpoint.id, nowIso);
        return reason;
      }
      return null;
    });
    if (disabledReason !== null) {
      this.deps.log?.warn({ endpoint_id: endpoint.id, owner_kind: endpoint.owner_kind, owner_id: endpoint.owner_id, reason: disabledReason }, 'webhook endpoint disabled');
    }
  }
}

function groupByEndpoint(deliveries: readonly DeliveryRow[]): Map<string, DeliveryRow[]> {
  const ordered = [...deliveries].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  const queues = new Map<string, DeliveryRow[]>();
  for (const delivery of ordered) {
    const queue = queues.get(delivery.endpoint_id);
    if (queue) queue.push(delivery);
    else queues.set(delivery.endpoint_id, [delivery]);
  }
  return queues;
}
