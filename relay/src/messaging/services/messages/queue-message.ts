// POST /api/messages/send: validate per channel, replay idempotent repeats, resolve and render the
// template, then store the message and count it against the sustained limit and daily quota in one
// transaction — shared with the sends arriving alongside (message-accept-batcher.ts) — so a
// duplicate or a refused message leaves no trace and uses no quota.
import { ROUTABLE_CHANNELS, type SendMessageIn, type SendMessageOut, type DeliveryStatus } from '@ledgerwire/shared';
import { z } from 'zod';
import { AppError } from '../../../errors/catalogue.js';
import { isoNow, newId } from '../../../foundation/messaging-ids.js';
import type { RenderedMessage, TemplateRenderer } from '../templates/template-renderer.js';
import type { ResolvedTemplate, TemplateService } from '../templates/template-service.js';
import type { Tenant } from '../tenants/tenant-service.js';
import type { AcceptResult, MessageAcceptBatcher } from './message-accept-batcher.js';
import type { MessageRepository, MessageRow } from '../../store/messages/message-repository.js';
import type { RefusedSendLog } from '../../store/messages/refused-send-log.js';
import { attachmentFingerprint, checkAttachments, totalBytes } from './message-attachments.js';
import { requestFingerprint } from '../../../foundation/request-fingerprint.js';

// 320: the longest address there can be (64-character local part, @, 255-character domain), and what
// the messages table holds; a rule's rendered recipient gets no other length check.
const emailAddress = z.email().max(320);

export type SendServiceDeps = Readonly<{
  messages: MessageRepository;
  /** Stores messages and counts them against the tenant's limits, a batch per transaction. */
  accepts: MessageAcceptBatcher;
  templates: TemplateService;
  renderer: TemplateRenderer;
  now: () => number;
  /** Called after a new message is committed (wakes the dispatch worker). */
  onQueued: () => void;
  /** Notes refused sends for support (refused-send-log.ts); none in tools that do not need it. */
  refusals?: RefusedSendLog;
}>;

export class SendService {
  constructor(private readonly deps: SendServiceDeps) {}

  /** Accepts the send, or throws the refusal — noted for support first. */
  async send(tenant: Tenant, input: SendMessageIn): Promise<SendMessageOut> {
    try {
      return await this.accept(tenant, input);
    } catch (error) {
      if (error instanceof AppError) await this.deps.refusals?.note(tenant.id, input, error);
      throw error;
    }
  }

  private async accept(tenant: Tenant, input: SendMessageIn): Promise<SendMessageOut> {
    assertRoutable(input);
    const action = input.action ?? 'send';
    // Test keys have an idempotency space of their own: a live send never replays a test message.
    const businessEventId = `${tenant.testMode ? 'test:' : ''}${input.transaction_id}_${action}`;
    const data = input.data ?? {};
    const attachments = checkAttachments(input.attachments);
    // A key is only added when present, so sends without it keep the fingerprints stored before it existed.
    const fingerprint = requestFingerprint({
      channel: input.channel,
      to: input.to,
      subject: input.subject,
      event_key: input.event_key,
      data,
      ...(attachments.length > 0 ? { attachments: attachmentFingerprint(attachments) } : {}),
      ...(input.metadata && Object.keys(input.metadata).length > 0 ? { metadata: input.metadata } : {}),
      ...(input.tags && input.tags.length > 0 ? { tags: input.tags } : {}),
    });

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
    // A send's own subject wins; without one, the template's subject is rendered instead.
    const rendered = this.deps.renderer.render({ subject: input.subject ?? template.row.subject, html: template.row.html, text: template.row.text }, data);
    assertDeliverable(rendered);
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
      attachment_bytes: totalBytes(attachments),
      metadata: input.metadata && Object.keys(input.metadata).length > 0 ? JSON.stringify(input.metadata) : null,
      tags: input.tags && input.tags.length > 0 ? JSON.stringify(input.tags) : null,
      test_mode: tenant.testMode ? 1 : 0,
    };
    let result: AcceptResult;
    try {
      result = await this.deps.accepts.accept({ row, limits: tenant.limits, attachments });
    } catch (error) {
      throw new AppError('dispatch_failed', { cause: error });
    }
    switch (result.kind) {
      case 'stored':
        this.deps.onQueued();
        return { message_id: row.id, status: 'queued' };
      case 'existing':
        return replay(result.row, fingerprint);
      case 'refused':
        throw result.error;
      case 'duplicate': {
        const existing = await this.deps.messages.findByBusinessId(tenant.id, businessEventId);
        if (!existing) throw new AppError('dispatch_failed', { message: 'Dispatch failed' });
        return replay(existing, fingerprint);
      }
    }
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

/**
 * Every provider must be able to take what is stored: SendGrid's schema wants at least one character
 * in the subject and in each content part, so a message whose parts all render empty (a variable the
 * data lacks) is refused here, in words, rather than failing for good at dispatch.
 */
function assertDeliverable(rendered: RenderedMessage): void {
  if (rendered.subject.trim() === '') throw new AppError('message_subject_empty');
  if (rendered.html.trim() === '' && (rendered.text ?? '').trim() === '') throw new AppError('message_content_empty');
}
