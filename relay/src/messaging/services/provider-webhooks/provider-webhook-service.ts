// POST /api/webhooks/sendgrid: verify the signed batch, then record each event on its message's
// timeline (deduplicated by sg_event_id) and move the status forward by rank only. Nothing changes
// unless the signature is valid and fresh. The per-tenant webhook limit counts batches that touch a
// tenant (hard bounces, spam reports and unsubscribes also suppress the address); a tenant over it has its events left out and the batch answered 429, so SendGrid retries
// it later (events already applied are then recognised as duplicates).
import type { DeliveryStatus, ProviderWebhookOut } from '@ledgerwire/shared';
import type { KeyObject } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { MessagingConfig } from '../../../config/load-config.js';
import { AppError } from '../../../errors/catalogue.js';
import { rateLimitHeaders, type RateLimitDecision, type RateLimiter } from '../../../limits/rate-limiter.js';
import type { StatusChange, StatusNotifier } from '../messages/status-notifier.js';
import { isoNow } from '../../../foundation/messaging-ids.js';
import type { MessageRepository, MessageRow } from '../../store/messages/message-repository.js';
import { recordProviderEvent } from '../../store/messages/record-provider-event.js';
import { limitRules } from '../../store/tenants/tenant-limits.js';
import type { TenantRepository } from '../../store/tenants/tenant-repository.js';
import type { TenantService } from '../tenants/tenant-service.js';
import { eventDetail, failureText, readSendGridEvent, statusForEvent, suppressionReasonFor, xMessageIdOf, type SendGridEvent } from './sendgrid-events.js';
import { isFreshTimestamp, parseSendGridPublicKey, verifySendGridSignature } from './sendgrid-signature.js';

export type ProviderWebhookDeps = Readonly<{
  messages: MessageRepository;
  tenantRows: TenantRepository;
  tenants: TenantService;
  limiter: RateLimiter;
  notifier: StatusNotifier;
  config: MessagingConfig;
  now: () => number;
  log: FastifyBaseLogger;
}>;

type Counts = { received: number; applied: number; duplicates: number; unmatched: number };

export class ProviderWebhookService {
  private readonly sendGridKey: KeyObject | undefined;

  constructor(private readonly deps: ProviderWebhookDeps) {
    const key = deps.config.sendgrid.webhookPublicKey;
    this.sendGridKey = key ? parseSendGridPublicKey(key) : undefined;
  }

  static readonly providers = ['sendgrid'] as const;

  async receiveSendGrid(rawBody: Buffer, signature: string | undefined, timestamp: string | undefined): Promise<ProviderWebhookOut> {
    if (
      !this.sendGridKey ||
      !signature ||
      !timestamp ||
      !isFreshTimestamp(timestamp, this.deps.now(), this.deps.config.sendgrid.webhookMaxAgeSeconds) ||
      !verifySendGridSignature(this.sendGridKey, rawBody, signature, timestamp)
    ) {
      throw new AppError('invalid_signature');
    }
    const events = parseBatch(rawBody);
    const counts: Counts = { received: events.length, applied: 0, duplicates: 0, unmatched: 0 };
    const matched = await this.match(events, counts);
    const refused = await this.enforceLimits(matched);
    const changes: StatusChange[] = [];
    for (const { event, message } of matched) {
      if (refused.has(message.tenant_id)) continue;
      const change = await this.apply(event, message, counts);
      if (change) changes.push(change);
    }
    for (const change of changes) await this.deps.notifier.notify(change);
    const worst = [...refused.values()][0];
    if (worst) throw new AppError('rate_limited', { headers: rateLimitHeaders(worst) });
    return { status: 'ok', ...counts };
  }

  private async match(events: SendGridEvent[], counts: Counts): Promise<{ event: SendGridEvent; message: MessageRow }[]> {
    const cache = new Map<string, MessageRow | undefined>();
    const matched: { event: SendGridEvent; message: MessageRow }[] = [];
    for (const event of events) {
      const key = event.messageId ?? (event.sgMessageId ? `sg:${xMessageIdOf(event.sgMessageId)}` : undefined);
      if (key === undefined) {
        counts.unmatched += 1;
        continue;
      }
      if (!cache.has(key)) {
        const found = event.messageId
          ? await this.deps.messages.find(event.messageId)
          : await this.deps.messages.findByProviderMessageId('sendgrid', key.slice(3));
        cache.set(key, found);
      }
      const message = cache.get(key);
      if (message) matched.push({ event, message });
      else counts.unmatched += 1;
    }
    return matched;
  }

  private async enforceLimits(matched: { message: MessageRow }[]): Promise<Map<string, RateLimitDecision>> {
    const tenantIds = [...new Set(matched.map((m) => m.message.tenant_id))];
    const refused = new Map<string, RateLimitDecision>();
    for (const row of await this.deps.tenantRows.findMany(tenantIds)) {
      const rules = limitRules(this.deps.tenants.toTenant(row).limits);
      const decision = await this.deps.limiter.consume(row.id, rules.webhooks);
      if (!decision.allowed) refused.set(row.id, decision);
    }
    return refused;
  }

  private async apply(event: SendGridEvent, message: MessageRow, counts: Counts): Promise<StatusChange | undefined> {
    const recordedAt = isoNow(this.deps.now);
    const occurredAt = event.timestamp === null ? recordedAt : new Date(event.timestamp * 1000).toISOString();
    const status = statusForEvent(event.event);
    const terminal = status === 'bounced' || status === 'failed';
    const suppression = suppressionReasonFor(event);
    const email = typeof event.raw['email'] === 'string' && event.raw['email'] !== '' ? event.raw['email'] : message.to_address;
    const outcome = await recordProviderEvent(this.deps.messages.db, {
      messageId: message.id,
      entry: { type: 'provider_event', status, provider: 'sendgrid', providerEventId: event.sgEventId, detail: eventDetail(event), occurredAt },
      recordedAt,
      suppression: suppression ? { tenant_id: message.tenant_id, email, reason: suppression, message_id: message.id, created_at: recordedAt } : undefined,
      status,
      extra: terminal ? { error: failureText(event) } : {},
    });
    if (outcome === 'duplicate') {
      counts.duplicates += 1;
      return undefined;
    }
    counts.applied += 1;
    // Recorded only, or out of order (or after a terminal status): on the timeline, status unchanged.
    if (outcome !== 'moved' || status === null) return undefined;
    return {
      tenantId: message.tenant_id,
      messageId: message.id,
      status: status satisfies DeliveryStatus,
      transactionId: message.transaction_id,
      provider: 'sendgrid',
      occurredAt,
      detail: eventDetail(event),
      metadata: message.metadata,
      tags: message.tags,
    };
  }
}

function parseBatch(rawBody: Buffer): SendGridEvent[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new AppError('bad_request', { message: 'The Event Webhook body is not valid JSON' });
  }
  if (!Array.isArray(parsed)) throw new AppError('bad_request', { message: 'The Event Webhook body must be a JSON array of events' });
  return parsed.map(readSendGridEvent).filter((event): event is SendGridEvent => event !== undefined);
}
