// Operator API bodies for a tenant's status webhooks (/admin/v1/tenants/{id}/webhooks…), delivered by
// the relay's one webhook engine with the message.* event types.
import { z } from 'zod';
import { WebhookDeliveryOut, WebhookEndpointOut, WebhookEndpointWithSecretOut } from '../webhooks/index.js';

export const TenantWebhookCreatedOut = z
  .object({ success: z.literal(true), webhook: WebhookEndpointWithSecretOut })
  .meta({ id: 'TenantWebhookCreatedOut' });
export type TenantWebhookCreatedOut = z.infer<typeof TenantWebhookCreatedOut>;

export const TenantWebhookOut = z.object({ success: z.literal(true), webhook: WebhookEndpointOut }).meta({ id: 'TenantWebhookOut' });
export type TenantWebhookOut = z.infer<typeof TenantWebhookOut>;

export const TenantWebhookListOut = z
  .object({ success: z.literal(true), webhooks: z.array(WebhookEndpointOut) })
  .meta({ id: 'TenantWebhookListOut' });
export type TenantWebhookListOut = z.infer<typeof TenantWebhookListOut>;

export const TenantWebhookDeliveryOut = z
  .object({ success: z.literal(true), delivery: WebhookDeliveryOut })
  .meta({ id: 'TenantWebhookDeliveryOut' });
export type TenantWebhookDeliveryOut = z.infer<typeof TenantWebhookDeliveryOut>;

export const TenantWebhookDeliveryListOut = z
  .object({ success: z.literal(true), total: z.number().int(), deliveries: z.array(WebhookDeliveryOut) })
  .meta({ id: 'TenantWebhookDeliveryListOut' });
export type TenantWebhookDeliveryListOut = z.infer<typeof TenantWebhookDeliveryListOut>;
