// /api/v1/webhooks bodies: the envelopes around the shared webhook endpoint and delivery shapes.
import { z } from 'zod';
import { WebhookDeliveryOut, WebhookEndpointOut, WebhookEndpointWithSecretOut } from '../webhooks/index.js';

export const BridgeWebhookListOut = z.object({ success: z.literal(true), webhooks: z.array(WebhookEndpointOut) });
export const BridgeWebhookOut = z.object({ success: z.literal(true), webhook: WebhookEndpointOut });
export const BridgeWebhookWithSecretOut = z.object({ success: z.literal(true), webhook: WebhookEndpointWithSecretOut });
export const BridgeWebhookDeletedOut = z.object({ success: z.literal(true), deleted: z.literal(true), id: z.string() });
export const BridgeWebhookTestOut = z.object({ success: z.literal(true), delivery: WebhookDeliveryOut });
export const BridgeWebhookDeliveriesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export const BridgeWebhookDeliveriesOut = z.object({
  success: z.literal(true),
  total: z.number().int().optional(),
  deliveries: z.array(WebhookDeliveryOut),
});
