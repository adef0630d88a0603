// Wire shapes of webhook deliveries (one per event and endpoint), their attempts, and the body every
// webhook request carries. Receivers deduplicate on `event_id` (also the `webhook-id` header) or on the
// `X-Service-Delivery` header, since an event can arrive more than once.
import { z } from 'zod';

export const WebhookAttemptOut = z
  .object({
    attempted_at: z.string(),
    status_code: z.number().int().nullable().describe('The receiver’s HTTP status; null when it never answered'),
    duration_ms: z.number().int(),
    error: z.string().nullable().describe('Why the attempt failed; null when the receiver answered 2xx'),
    next_attempt_at: z.string().nullable().describe('When the next attempt is due; null when none follows'),
    response_body: z.string().nullable().describe('The start of the receiver’s answer (up to 4 KB); null when it sent none or never answered'),
  })
  .meta({ id: 'WebhookAttemptOut' });
export type WebhookAttemptOut = z.infer<typeof WebhookAttemptOut>;

export const WebhookDeliveryStatus = z.enum(['pending', 'succeeded', 'failed', 'cancelled']);
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatus>;

export const WebhookDeliveryOut = z
  .object({
    id: z.string().describe('dlv_…, sent as X-Service-Delivery'),
    event_id: z.string().describe('evt_…, sent as webhook-id and in the body'),
    endpoint_id: z.string(),
    event_type: z.string(),
    status: WebhookDeliveryStatus,
    attempt_count: z.number().int(),
    next_attempt_at: z.string().nullable(),
    created_at: z.string(),
    attempts: z.array(WebhookAttemptOut),
  })
  .meta({ id: 'WebhookDeliveryOut' });
export type WebhookDeliveryOut = z.infer<typeof WebhookDeliveryOut>;

/** Operator view (console support): the delivery plus whose it is and where it goes. */
export const WebhookDeliveryDetailOut = z
  .object({
    success: z.literal(true),
    delivery: WebhookDeliveryOut.extend({
      owner: z.object({ kind: z.enum(['tenant', 'application']), id: z.string() }),
      endpoint_url: z.string(),
      payload: z.string().describe('The exact body sent (signed bytes)'),
    }),
  })
  .meta({ id: 'WebhookDeliveryDetailOut' });
export type WebhookDeliveryDetailOut = z.infer<typeof WebhookDeliveryDetailOut>;

/** The JSON body of every webhook request, signed per Standard Webhooks. */
export const WebhookEventPayload = z
  .object({
    event_id: z.string(),
    type: z.string(),
    created_at: z.string(),
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'WebhookEventPayload' });
export type WebhookEventPayload = z.infer<typeof WebhookEventPayload>;
