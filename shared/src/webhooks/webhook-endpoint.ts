// Wire shapes of a webhook endpoint, shared by the messaging service (tenant status webhooks) and the
// accounting bridge (presence webhooks): both are served by the relay's one delivery engine. The
// signing secret appears only in the answers of create and rotate-secret (WebhookEndpointWithSecretOut).
import { z } from 'zod';

const EVENT_TYPES_TEXT =
  'Event types to deliver; the set depends on the API. Bridge: connector.online, connector.offline, books.started, books.stopped, ' +
  'company.linked, company.unlinked, transaction.completed, transaction.failed, connect_session.completed. Messaging: message.sent, message.delivered, ' +
  'message.opened, message.clicked, message.bounced, message.failed';

const eventList = z.array(z.string().trim().min(1).max(100)).min(1, 'must name at least one event type').max(50).describe(EVENT_TYPES_TEXT);

export const WebhookEndpointCreateIn = z.object({
  url: z.string().trim().min(1).max(2048).describe('HTTPS URL reachable from the public internet'),
  events: eventList.optional().describe(`${EVENT_TYPES_TEXT}. Defaults to every event type of the API`),
  description: z.string().max(500).optional(),
});
export type WebhookEndpointCreateIn = z.infer<typeof WebhookEndpointCreateIn>;

export const WebhookEndpointUpdateIn = z
  .object({
    url: z.string().trim().min(1).max(2048).optional(),
    events: eventList.optional(),
    description: z.string().max(500).nullable().optional().describe('null clears it'),
    enabled: z.boolean().optional().describe('false stops delivery and cancels pending deliveries; true re-enables a disabled endpoint'),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), 'must change at least one field');
export type WebhookEndpointUpdateIn = z.infer<typeof WebhookEndpointUpdateIn>;

export const WebhookEndpointOut = z
  .object({
    id: z.string().describe('wh_…'),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable().describe('Why the relay disabled the endpoint, e.g. after 5 days of failed deliveries'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'WebhookEndpointOut' });
export type WebhookEndpointOut = z.infer<typeof WebhookEndpointOut>;

export const WebhookEndpointWithSecretOut = WebhookEndpointOut.extend({
  secret: z
    .string()
    .describe('whsec_ + base64 signing secret (Standard Webhooks). Shown only in this answer: keep it now.'),
}).meta({ id: 'WebhookEndpointWithSecretOut' });
export type WebhookEndpointWithSecretOut = z.infer<typeof WebhookEndpointWithSecretOut>;
