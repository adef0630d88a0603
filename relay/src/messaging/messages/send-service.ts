// POST /api/messages/send: validate per channel, replay idempotent repeats, resolve and render the
// template, then store the message and count it against the sustained limit and daily quota in one
// transaction — so a duplicate or a refused message leaves no trace and uses no quota.
import { ROUTABLE_CHANNELS, type SendMessageIn, type SendMessageOut, type DeliveryStatus } from '@ledgerwire/shared';
import { z } from 'zod';
import { AppError } from '../../errors/catalogue.js';
import { rateLimitHeaders, type RateLimiter } from '../../limits/rate-limiter.js';
import { isoNow, newId } from '../messaging-ids.js';
import type { TemplateRenderer } from '../templates/template-renderer.js';
import type { ResolvedTemplate, TemplateService } from '../templates/template-service.js';
import { limitRules } from '../tenants/tenant-limits.js';
import type { Tenant } from '../tenants/tenant-service.js';
import type { MessageRepository, MessageRow } from './message-repository.js';
import { requestFingerprint } from './request-fingerprint.js';

const emailAddress = z.email();

export type SendServiceDeps = Readonly<{
  messages: MessageRepository;
  templates: TemplateService;
  renderer: TemplateRenderer;
  limiter: RateLimiter;
  now: () => number;
  /** Called after a new message is committed (wakes the dispatch worker). */
  onQueued: () => void;
}>;

export class SendService {
  constructor(private readonly deps: SendServiceDeps) {}

  async send(tenant: Tenant, input: SendMessageIn): Promise<SendMessageOut> {
    assertRoutable(input);
    const action = input.action ?? 'send';
    const businessEventId = `${input.transaction_id}_${action}`;
    const data = input.data ?? {};
    const fingerprint = requestFingerprint({ channel: input.channel, to: input.to, subject: input.subject, event_key: input.event_key, data });

    // New messages are the common case: go straight to the insert, whose unique index finds repeats.
    // Only when the template no longer resolves is a stored repeat looked up first, so a replay
    // still answers 200 after its template was deactivated.
    let template: ResolvedTemplate;
    try {
      template = await this.deps.templates.resolveForSend(tenant.id, input.event_key, input.channel);
    } catch (error) {
      const existing = await this.deps.messages.findByBusinessId(tenant.id, businessEventId);
      if (existing) return replay(existing, fingerprint);
      throw error;
    }
    const rendered = this.deps.renderer.render({ subject: input.subject, html: template.row.html, text: template.row.text }, data);
    const at = isoNow(this.deps.now);
    const row: MessageRow = {
      id: newId('msg'),
      tenant_id: tenant.id,
      business_event_id: businessEventId,
      transaction_id: input.transaction_id,
      action,
      request_hash: fingerprint,
      channel: input.channel,
      to_address: input.to,
      subject: rendered.subject,
      html: rendered.html,
      text: rendered.text,
      event_key: input.event_key,
      template_id: template.row.id,
      template_fallback: template.fallback ? 1 : 0,
      status: 'queued',
      status_rank: 0,
      provider: null,
      provider_message_id: null,
      attempts: 0,
      next_attempt_at: at,
      lease_until: null,
      error: null,
      created_at: at,
      updated_at: at,
    };
    let stored: boolean;
    try {
      stored = await this.store(tenant, row);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError('dispatch_failed', { cause: error });
    }
    if (!stored) {
      const existing = await this.deps.messages.findByBusinessId(tenant.id, businessEventId);
      if (!existing) throw new AppError('dispatch_failed', { message: 'Dispatch failed' });
      return replay(existing, fingerprint);
    }
    this.deps.onQueued();
    return { message_id: row.id, status: 'queued' };
  }

  /** Inserts the message and counts it, atomically; false when the business-event id already exists. */
  private async store(tenant: Tenant, row: MessageRow): Promise<boolean> {
    const rules = limitRules(tenant.limits);
    return this.deps.messages.db.transaction().execute(async (tx) => {
      // The timeline's "queued" entry is the message row itself (see message-query-service.ts).
      if (!(await this.deps.messages.insertIfNew(row, tx))) return false;
      // Daily first, sustained last: a per-minute count may live in memory (see rate-limiter.ts)
      // and must be the last step that can refuse, so nothing after it rolls back.
      const daily = await this.deps.limiter.consume(tenant.id, rules.daily, { executor: tx });
      if (!daily.allowed) throw new AppError('daily_quota_exceeded', { headers: rateLimitHeaders(daily) });
      const sustained = await this.deps.limiter.consume(tenant.id, rules.sustained, { executor: tx });
      if (!sustained.allowed) throw new AppError('sustained_limit_exceeded', { headers: rateLimitHeaders(sustained) });
      return true;
    });
  }
}

function replay(existing: MessageRow, fingerprint: string): SendMessageOut {
  if (existing.request_hash !== fingerprint) {
    throw new AppError('idempotency_conflict', {
      message:
        `transaction_id "${existing.transaction_id}" with action "${existing.action}" was already used for message ` +
        `${existing.id} with a different body; a repeat must send the same body, a new message needs a new transaction_id`,
    });
  }
  return { message_id: existing.id, status: existing.status as DeliveryStatus };
}

function assertRoutable(input: SendMessageIn): void {
  if (!(ROUTABLE_CHANNELS as readonly string[]).includes(input.channel)) {
    const planned = ['whatsapp', 'sms', 'push'].includes(input.channel);
    const message = planned
      ? `The channel field must be email: only email is routable today (${input.channel} is planned).`
      : 'The selected channel is invalid: only email is routable today (whatsapp, sms and push are planned).';
    throw new AppError('validation_failed', { details: [{ field: 'channel', message }] });
  }
  if (!emailAddress.safeParse(input.to).success) {
    throw new AppError('validation_failed', { details: [{ field: 'to', message: 'The to field must be a valid email address.' }] });
  }
}
