// POST /api/messages/send: the request, its answer, and the message read model
// (GET /api/messages/{message_id}) with its delivery timeline.
import { z } from 'zod';
import { DeliveryStatus } from './delivery-status.js';
import { jsonObject, optionalString, requiredString } from './field-messages.js';

/**
 * Attachment limits (docs/messaging.md, "Attachments"): decoded bytes per message as Postmark's
 * 10 MB, a count per message, and file types refused as SendGrid refuses executables.
 */
export const ATTACHMENT_LIMITS = Object.freeze({
  maxCount: 20,
  maxBytesPerMessage: 10 * 1024 * 1024,
  maxFilenameLength: 255,
  /** The longest base64 text a message's attachments can need: 4 characters per 3 bytes. */
  maxBase64Length: Math.ceil((10 * 1024 * 1024) / 3) * 4,
});

/** Extensions refused as attachments: programs and scripts that mail systems block. */
export const REFUSED_ATTACHMENT_EXTENSIONS = Object.freeze([
  'ade', 'adp', 'apk', 'appx', 'bat', 'chm', 'cmd', 'com', 'cpl', 'dll', 'dmg', 'exe', 'hta', 'ins', 'isp', 'jar', 'js',
  'jse', 'lib', 'lnk', 'mde', 'msc', 'msi', 'msix', 'msp', 'mst', 'nsh', 'pif', 'ps1', 'scr', 'sct', 'shb', 'sys', 'vb',
  'vbe', 'vbs', 'vxd', 'wsc', 'wsf', 'wsh',
] as const);

/** Bounds of a send's metadata and tags (docs/messaging.md, "Metadata and tags"). */
export const METADATA_LIMITS = Object.freeze({ maxKeys: 10, maxKeyLength: 40, maxValueLength: 500, maxTags: 10, maxTagLength: 50 });

export const MessageMetadataIn = z
  .record(
    z.string().min(1, { error: 'keys must not be empty.' }).max(METADATA_LIMITS.maxKeyLength, { error: `keys must not be longer than ${METADATA_LIMITS.maxKeyLength} characters.` }),
    z.string({ error: 'values must be strings.' }).max(METADATA_LIMITS.maxValueLength, { error: `values must not be longer than ${METADATA_LIMITS.maxValueLength} characters.` }),
    { error: 'must be an object of strings.' },
  )
  .refine((map) => Object.keys(map).length <= METADATA_LIMITS.maxKeys, { error: `must not have more than ${METADATA_LIMITS.maxKeys} keys.` })
  .describe('Your own ids, stored and echoed in every status webhook; at most 10 string values');

export const MessageTagIn = z
  .string({ error: 'must be strings.' })
  .min(1, { error: 'must not be empty.' })
  .max(METADATA_LIMITS.maxTagLength, { error: `must not be longer than ${METADATA_LIMITS.maxTagLength} characters.` })
  .regex(/^[A-Za-z0-9_.:-]+$/, { error: 'may hold only letters, digits and _ . : -' });

export const MessageAttachmentIn = z
  .object({
    filename: requiredString(ATTACHMENT_LIMITS.maxFilenameLength).describe('File name shown to the recipient, e.g. invoice-42.pdf'),
    content: z
      .string({ error: (issue) => (issue.input === undefined ? 'is required.' : 'must be a string.') })
      .min(1, { error: 'must not be empty.' })
      .max(ATTACHMENT_LIMITS.maxBase64Length, { error: 'is larger than the 10 MB a message may attach.' })
      .describe('The file, base64-encoded (standard alphabet, padded)'),
    content_type: requiredString(255).describe('MIME type, e.g. application/pdf'),
    content_id: optionalString(255).describe('Makes the attachment inline: the HTML refers to it as cid:<content_id>'),
  })
  .meta({ id: 'MessageAttachmentIn' });
export type MessageAttachmentIn = z.infer<typeof MessageAttachmentIn>;

/** What a message keeps of an attachment once its bytes are gone. */
export const MessageAttachmentOut = z
  .object({
    filename: z.string(),
    content_type: z.string(),
    content_id: z.string().nullable(),
    size: z.number().int().describe('Decoded bytes'),
  })
  .meta({ id: 'MessageAttachmentOut' });
export type MessageAttachmentOut = z.infer<typeof MessageAttachmentOut>;

export const SendMessageIn = z
  .object({
    channel: requiredString(20).describe('Currently `email`; `whatsapp`, `sms`, `push` are planned'),
    to: requiredString(320).describe('Recipient; a valid e-mail address for the email channel'),
    subject: optionalString(998).describe('Subject line for the email channel (Handlebars, rendered with `data`); without it, the template’s subject is used'),
    event_key: requiredString(100).describe('Name of the template to render'),
    transaction_id: requiredString(150).describe('Caller’s unique id for this send; used for idempotency'),
    data: jsonObject('Values merged into the template variables').optional(),
    action: optionalString(50).describe('Logical action, default `send`; the business-event id is `{transaction_id}_{action}`'),
    attachments: z
      .array(MessageAttachmentIn, { error: 'must be an array.' })
      .max(ATTACHMENT_LIMITS.maxCount, { error: `must not have more than ${ATTACHMENT_LIMITS.maxCount} items.` })
      .optional()
      .describe('Files sent with the message; at most 10 MB decoded in all'),
    metadata: MessageMetadataIn.optional(),
    tags: z
      .array(MessageTagIn, { error: 'must be an array of strings.' })
      .max(METADATA_LIMITS.maxTags, { error: `must not have more than ${METADATA_LIMITS.maxTags} items.` })
      .refine((tags) => new Set(tags).size === tags.length, { error: 'must not name a tag twice.' })
      .optional()
      .describe('Labels to filter by (GET /api/messages?tag=…); echoed in every status webhook'),
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
    test_mode: z.boolean().describe('Sent with a test key: outbox only, simulated status events'),
    metadata: z.record(z.string(), z.string()).describe('As sent; {} when none'),
    tags: z.array(z.string()).describe('As sent; [] when none'),
    attachments: z.array(MessageAttachmentOut).describe('Name, type and size of each attachment; the bytes are removed once the message is sent or failed'),
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

/** 422 Invalid template: the contract's text, and which event_key and channel had no active template. */
export const InvalidTemplateOut = z
  .object({
    error: z.literal('Invalid template'),
    event_key: z.string().describe('The event_key of the send'),
    channel: z.string().describe('The channel of the send'),
  })
  .meta({ id: 'InvalidTemplateOut' });
export type InvalidTemplateOut = z.infer<typeof InvalidTemplateOut>;

/** Sends per POST /api/messages/batch. */
export const BATCH_MAX_MESSAGES = 100;

export const SendBatchIn = z
  .object({
    messages: z
      .array(z.unknown(), { error: (issue) => (issue.input === undefined ? 'is required.' : 'must be an array of send bodies.') })
      .min(1, { error: 'must hold at least one send body.' })
      .max(BATCH_MAX_MESSAGES, { error: `must not have more than ${BATCH_MAX_MESSAGES} items: split the batch.` })
      .describe('Send bodies as POST /api/messages/send takes them; each is validated, limited and idempotent on its own'),
  })
  .meta({ id: 'SendBatchIn' });
export type SendBatchIn = z.infer<typeof SendBatchIn>;

/** The answer POST /api/messages/send would have given this item alone, when it is an error. */
export const SendBatchErrorOut = z
  .object({
    status_code: z.number().int().describe('The HTTP status the send alone would have got'),
    error: z.string().optional().describe('As in {"error": …}'),
    message: z.string().optional().describe('A validation failure’s summary'),
    errors: z.record(z.string(), z.array(z.string())).optional().describe('A validation failure’s problems by field'),
    event_key: z.string().optional().describe('Invalid template: the event_key that had no active template'),
    channel: z.string().optional().describe('Invalid template: the channel that had no active template'),
  })
  .meta({ id: 'SendBatchErrorOut' });
export type SendBatchErrorOut = z.infer<typeof SendBatchErrorOut>;

export const SendBatchOut = z
  .object({ results: z.array(z.union([SendMessageOut, SendBatchErrorOut])).describe('One per item, in the same order') })
  .meta({ id: 'SendBatchOut' });
export type SendBatchOut = z.infer<typeof SendBatchOut>;

/** GET /api/messages: a tenant's messages, oldest first, filtered, a page at a time. */
export const MessageListQuery = z
  .object({
    status: DeliveryStatus.optional(),
    tag: MessageTagIn.optional(),
    to: z.string().min(1).max(320).optional().describe('Exact recipient address (case-insensitive)'),
    since: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time.' }).optional().describe('Messages created at or after this time'),
    cursor: z.string().min(1).max(500).optional().describe('next_cursor of the previous page'),
    limit: z.coerce.number({ error: 'must be a number.' }).int().min(1).max(100).default(50),
  });
// No .meta id: query parameters are listed inline in the OpenAPI document, never as a $ref.
export type MessageListQuery = z.infer<typeof MessageListQuery>;

export const MessageSummaryOut = z
  .object({
    message_id: z.string(),
    status: DeliveryStatus,
    to: z.string(),
    subject: z.string(),
    event_key: z.string(),
    transaction_id: z.string(),
    action: z.string(),
    provider: z.string().nullable(),
    error: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    tags: z.array(z.string()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'MessageSummaryOut' });
export type MessageSummaryOut = z.infer<typeof MessageSummaryOut>;

export const MessageListOut = z
  .object({
    messages: z.array(MessageSummaryOut),
    next_cursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
  })
  .meta({ id: 'MessageListOut' });
export type MessageListOut = z.infer<typeof MessageListOut>;
