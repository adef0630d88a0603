// Bodies of the console's read-only operator queries (/admin/v1/console/…): the searches and counts
// the console needs that the messaging and bridge operator APIs do not answer by themselves.
import { z } from 'zod';
import { DeliveryStatus } from '../messaging/delivery-status.js';
import { LoopHealthOut } from '../probes/health.js';
import { MessageOut } from '../messaging/send-message.js';
import { WebhookDeliveryOut, WebhookEndpointOut } from '../webhooks/index.js';

export const ConsoleMessageSearchQuery = z.object({
  status: DeliveryStatus.optional(),
  recipient: z.string().trim().min(1).max(320).optional().describe('Part of the recipient address, any case'),
  tag: z.string().trim().min(1).max(50).optional().describe('A tag the message carries, exactly'),
  metadata: z.string().trim().min(1).max(500).optional().describe('Part of a metadata value (or key), any case: an invoice id, a customer id'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export type ConsoleMessageSearchQuery = z.infer<typeof ConsoleMessageSearchQuery>;

export const ConsoleMessageSummaryOut = z.object({
  message_id: z.string(),
  status: DeliveryStatus,
  channel: z.string(),
  to: z.string(),
  subject: z.string(),
  event_key: z.string(),
  transaction_id: z.string(),
  provider: z.string().nullable(),
  attempts: z.number().int(),
  metadata: z.record(z.string(), z.string()),
  tags: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ConsoleMessageSummaryOut = z.infer<typeof ConsoleMessageSummaryOut>;

export const ConsoleMessageSearchOut = z.object({
  success: z.literal(true),
  total: z.number().int(),
  messages: z.array(ConsoleMessageSummaryOut),
});
export type ConsoleMessageSearchOut = z.infer<typeof ConsoleMessageSearchOut>;

/** Sends the relay refused after authenticating them, newest first, kept 7 days. */
export const ConsoleRefusedSendOut = z.object({
  id: z.string(),
  code: z.string().describe('The error code (docs/errors.md)'),
  status: z.number().int().describe('The HTTP status the sender got'),
  reason: z.string().describe('What the sender was told, in full'),
  event_key: z.string().nullable(),
  channel: z.string().nullable(),
  to: z.string().nullable(),
  transaction_id: z.string().nullable(),
  refused_at: z.string(),
});
export type ConsoleRefusedSendOut = z.infer<typeof ConsoleRefusedSendOut>;
export const ConsoleRefusedSendsOut = z.object({ success: z.literal(true), refused_sends: z.array(ConsoleRefusedSendOut) });
export type ConsoleRefusedSendsOut = z.infer<typeof ConsoleRefusedSendsOut>;

export const ConsoleMessageDetailOut = z.object({ success: z.literal(true), message: MessageOut });
export type ConsoleMessageDetailOut = z.infer<typeof ConsoleMessageDetailOut>;

export const ConsolePulledCountsQuery = z.object({ application_id: z.string().min(1).optional() });

export const ConsolePulledCountOut = z.object({
  company_id: z.number().int(),
  vouchers_pending: z.number().int(),
  vouchers_acknowledged: z.number().int(),
  vouchers_deleted: z.number().int().describe('Reported deleted in the books'),
  masters: z.number().int(),
  masters_deleted: z.number().int(),
  last_pulled_at: z.string().nullable().describe('When the books last sent a voucher or master for this company'),
});
export type ConsolePulledCountOut = z.infer<typeof ConsolePulledCountOut>;

export const ConsolePulledCountsOut = z.object({ success: z.literal(true), companies: z.array(ConsolePulledCountOut) });
export type ConsolePulledCountsOut = z.infer<typeof ConsolePulledCountsOut>;

export const ConsoleWebhookOwnerQuery = z.object({
  owner_kind: z.enum(['tenant', 'application']),
  owner_id: z.string().min(1).max(100),
});
export type ConsoleWebhookOwnerQuery = z.infer<typeof ConsoleWebhookOwnerQuery>;

export const ConsoleWebhookListOut = z.object({ success: z.literal(true), webhooks: z.array(WebhookEndpointOut) });
export type ConsoleWebhookListOut = z.infer<typeof ConsoleWebhookListOut>;

export const ConsoleWebhookDeliveriesQuery = ConsoleWebhookOwnerQuery.extend({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

export const ConsoleWebhookDeliveriesOut = z.object({
  success: z.literal(true),
  total: z.number().int(),
  deliveries: z.array(WebhookDeliveryOut),
});
export type ConsoleWebhookDeliveriesOut = z.infer<typeof ConsoleWebhookDeliveriesOut>;

/** A template draft rendered with sample data before it is saved (the editor's live preview). */
export const ConsoleTemplateDraftPreviewIn = z
  .object({
    subject: z.string().min(1).max(998),
    html: z.string().min(1).max(512 * 1024),
    text: z.string().max(512 * 1024).nullable().optional(),
    data: z.record(z.string(), z.unknown()).default({}),
  })
  .meta({
    id: 'ConsoleTemplateDraftPreviewIn',
    examples: [{ subject: 'Order {{order.number}} shipped', html: '<p>Dear {{customer.name}}</p>', text: null, data: { order: { number: 'SO-1042' }, customer: { name: 'Asha Rao' } } }],
  });
export type ConsoleTemplateDraftPreviewIn = z.infer<typeof ConsoleTemplateDraftPreviewIn>;

/** The relay's background loops for the console's Operations page: the same reports /readyz gives, always 200. */
export const ConsoleBackgroundLoopsOut = z
  .object({
    success: z.literal(true),
    /** What /readyz answers now: 'unavailable' when the database does not answer or a loop is stuck. */
    readiness: z.enum(['ready', 'unavailable']),
    loops: z.array(LoopHealthOut),
  })
  .meta({ id: 'ConsoleBackgroundLoopsOut' });
export type ConsoleBackgroundLoopsOut = z.infer<typeof ConsoleBackgroundLoopsOut>;
