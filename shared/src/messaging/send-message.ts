// POST /api/messages/send: the request, its answer, and the message read model
// (GET /api/messages/{message_id}) with its delivery timeline.
import { z } from 'zod';
import { DeliveryStatus } from './delivery-status.js';
import { jsonObject, optionalString, requiredString } from './field-messages.js';

export const SendMessageIn = z
  .object({
    channel: requiredString(20).describe('Currently `email`; `whatsapp`, `sms`, `push` are planned'),
    to: requiredString(320).describe('Recipient; a valid e-mail address for the email channel'),
    subject: requiredString(998).describe('Subject line for the email channel (Handlebars, rendered with `data`)'),
    event_key: requiredString(100).describe('Name of the template to render'),
    transaction_id: requiredString(150).describe('Caller’s unique id for this send; used for idempotency'),
    data: jsonObject('Values merged into the template variables').optional(),
    action: optionalString(50).describe('Logical action, default `send`; the business-event id is `{transaction_id}_{action}`'),
  })
  .meta({ id: 'SendMessageIn' });
export type SendMessageIn = z.infer<typeof SendMessageIn>;

export const SendMessageOut = z
  .object({
    message_id: z.string().describe('msg_…; correlates with callbacks and status webhooks'),
    status: DeliveryStatus.describe('`queued` for a new message; the current status on an idempotent replay'),
  })
  .meta({ id: 'SendMessageOut' });
export type SendMessageOut = z.infer<typeof SendMessageOut>;

export const MessageTimelineEntryOut = z
  .object({
    type: z.string().describe('queued, sent, attempt_failed, provider_event, status_ignored, …'),
    status: DeliveryStatus.nullable().describe('The status this entry moved the message to, if any'),
    provider: z.string().nullable(),
    detail: z.record(z.string(), z.unknown()).nullable(),
    occurred_at: z.string(),
  })
  .meta({ id: 'MessageTimelineEntryOut' });
export type MessageTimelineEntryOut = z.infer<typeof MessageTimelineEntryOut>;

export const MessageOut = z
  .object({
    message_id: z.string(),
    status: DeliveryStatus,
    channel: z.string(),
    to: z.string(),
    subject: z.string(),
    event_key: z.string(),
    template_id: z.string(),
    template_fallback: z.boolean().describe('true when the test_email onboarding fallback rendered it'),
    transaction_id: z.string(),
    action: z.string(),
    provider: z.string().nullable(),
    provider_message_id: z.string().nullable(),
    attempts: z.number().int(),
    error: z.string().nullable().describe('The provider response on a permanent failure'),
    created_at: z.string(),
    updated_at: z.string(),
    timestamps: z.object({
      queued_at: z.string(),
      sent_at: z.string().nullable(),
      delivered_at: z.string().nullable(),
      opened_at: z.string().nullable(),
      clicked_at: z.string().nullable(),
      bounced_at: z.string().nullable(),
      failed_at: z.string().nullable(),
    }),
    timeline: z.array(MessageTimelineEntryOut),
  })
  .meta({ id: 'MessageOut' });
export type MessageOut = z.infer<typeof MessageOut>;
