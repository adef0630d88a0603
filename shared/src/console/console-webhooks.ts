// Bodies of the console's webhook actions (/admin/v1/console/webhooks/{endpoint_id}/…), for an endpoint
// of any tenant or application: send a test event, disable or enable, delete.
import { z } from 'zod';
import { WebhookDeliveryOut } from '../webhooks/webhook-delivery.js';
import { WebhookEndpointOut } from '../webhooks/webhook-endpoint.js';

export const ConsoleWebhookStateIn = z
  .object({ enabled: z.boolean().describe('false stops delivery and cancels pending deliveries; true enables it again') })
  .strict()
  .meta({ id: 'ConsoleWebhookStateIn', examples: [{ enabled: false }] });
export type ConsoleWebhookStateIn = z.infer<typeof ConsoleWebhookStateIn>;

export const ConsoleWebhookEndpointEnvelopeOut = z.object({ success: z.literal(true), webhook: WebhookEndpointOut });
export type ConsoleWebhookEndpointEnvelopeOut = z.infer<typeof ConsoleWebhookEndpointEnvelopeOut>;

export const ConsoleWebhookTestOut = z.object({ success: z.literal(true), delivery: WebhookDeliveryOut });
export type ConsoleWebhookTestOut = z.infer<typeof ConsoleWebhookTestOut>;

export const ConsoleWebhookDeletedOut = z.object({ success: z.literal(true), deleted: z.literal(true) });
export type ConsoleWebhookDeletedOut = z.infer<typeof ConsoleWebhookDeletedOut>;
