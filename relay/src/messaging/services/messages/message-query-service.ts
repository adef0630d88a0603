// GET /api/messages/{message_id}: one tenant's message with its status, provider, per-status
// timestamps and event timeline. Another tenant's id is a 404, never a 403 (ids are not disclosed).
import type { DeliveryStatus, MessageOut } from '@ledgerwire/shared';
import { AppError } from '../../../errors/catalogue.js';
import { attachmentOut } from './message-attachments.js';
import type { MessageRepository, TimelineRow } from '../../store/messages/message-repository.js';

export class MessageQueryService {
  constructor(private readonly messages: MessageRepository) {}

  async get(tenantId: string, messageId: string): Promise<MessageOut> {
    const row = await this.messages.find(messageId);
    if (!row || row.tenant_id !== tenantId) throw new AppError('message_not_found');
    // The first entry, "queued", is the message row itself: the send path writes no separate row.
    const queued: TimelineRow = {
      id: '',
      message_id: row.id,
      type: 'queued',
      status: 'queued',
      provider: null,
      provider_event_id: null,
      detail: row.template_fallback === 1 ? JSON.stringify({ template_fallback: 'test_email', requested_event_key: row.event_key }) : null,
      occurred_at: row.created_at,
      recorded_at: row.created_at,
    };
    const timeline = [queued, ...(await this.messages.timeline(row.id))];
    const firstAt = (status: DeliveryStatus) => timeline.find((entry) => entry.status === status && entry.type !== 'status_ignored')?.occurred_at ?? null;
    return {
      message_id: row.id,
      status: row.status as DeliveryStatus,
      channel: row.channel,
      to: row.to_address,
      subject: row.subject,
      event_key: row.event_key,
      template_id: row.template_id,
      template_fallback: row.template_fallback === 1,
      transaction_id: row.transaction_id,
      action: row.action,
      provider: row.provider,
      provider_message_id: row.provider_message_id,
      attempts: row.attempts,
      error: row.status === 'failed' || row.status === 'bounced' ? row.error : null,
      test_mode: row.test_mode === 1,
      metadata: row.metadata === null ? {} : (JSON.parse(row.metadata) as Record<string, string>),
      tags: row.tags === null ? [] : (JSON.parse(row.tags) as string[]),
      attachments: Number(row.attachment_bytes) > 0 ? (await this.messages.attachmentsOf(row.id)).map(attachmentOut) : [],
      created_at: row.created_at,
      updated_at: row.updated_at,
      timestamps: {
        queued_at: row.created_at,
        sent_at: firstAt('sent'),
        delivered_at: firstAt('delivered'),
        opened_at: firstAt('opened'),
        clicked_at: firstAt('clicked'),
        bounced_at: firstAt('bounced'),
        failed_at: firstAt('failed'),
      },
      timeline: timeline.map(timelineOut),
    };
  }
}

function timelineOut(entry: TimelineRow): MessageOut['timeline'][number] {
  return {
    type: entry.type,
    status: (entry.status as DeliveryStatus | null) ?? null,
    provider: entry.provider,
    detail: entry.detail === null ? null : (JSON.parse(entry.detail) as Record<string, unknown>),
    occurred_at: entry.occurred_at,
  };
}
