// Operator API for a tenant's status webhooks: /admin/v1/tenants/{id}/webhooks…. Thin over the
// relay's one webhook engine (app.webhooks) with owner {kind: 'tenant', id}.
import {
  TenantWebhookCreatedOut,
  TenantWebhookDeliveryListOut,
  TenantWebhookDeliveryOut,
  TenantWebhookListOut,
  TenantWebhookOut,
  WebhookEndpointCreateIn,
  WebhookEndpointUpdateIn,
} from '@ledgerwire/shared';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

const tenantParams = z.object({ id: z.string().min(1).max(60) });
const endpointParams = tenantParams.extend({ webhook_id: z.string().min(1).max(100) });
const security = [{ operatorToken: [] }];
const tags = ['operator'];

export const webhookAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const messaging = app.messaging;
  const webhooks = () => app.webhooks.service;
  const owner = async (id: string) => ({ kind: 'tenant' as const, id: (await messaging.tenants.get(id)).id });

  app.post(
    '/tenants/:id/webhooks',
    {
      schema: {
        tags,
        security,
        summary: 'Add a status webhook (message.sent|delivered|opened|clicked|bounced|failed); the signing secret is shown only here',
        params: tenantParams,
        body: WebhookEndpointCreateIn,
        response: { 201: TenantWebhookCreatedOut },
      },
    },
    async (request, reply) => {
      const { endpoint, secret } = await webhooks().createEndpoint(await owner(request.params.id), request.body);
      return reply.code(201).send({ success: true as const, webhook: { ...endpoint, secret } });
    },
  );
  app.get(
    '/tenants/:id/webhooks',
    { schema: { tags, security, summary: 'A tenant’s status webhooks', params: tenantParams, response: { 200: TenantWebhookListOut } } },
    async (request) => ({ success: true as const, webhooks: await webhooks().listEndpoints(await owner(request.params.id)) }),
  );
  app.patch(
    '/tenants/:id/webhooks/:webhook_id',
    {
      schema: { tags, security, summary: 'Change a status webhook', params: endpointParams, body: WebhookEndpointUpdateIn, response: { 200: TenantWebhookOut } },
    },
    async (request) => ({
      success: true as const,
      webhook: await webhooks().updateEndpoint(await owner(request.params.id), request.params.webhook_id, request.body),
    }),
  );
  app.delete(
    '/tenants/:id/webhooks/:webhook_id',
    { schema: { tags, security, summary: 'Delete a status webhook', params: endpointParams, response: { 200: z.object({ success: z.literal(true) }) } } },
    async (request) => {
      await webhooks().deleteEndpoint(await owner(request.params.id), request.params.webhook_id);
      return { success: true as const };
    },
  );
  app.post(
    '/tenants/:id/webhooks/:webhook_id/rotate-secret',
    { schema: { tags, security, summary: 'New signing secret (the old one keeps signing for 24 h)', params: endpointParams, response: { 200: TenantWebhookCreatedOut } } },
    async (request) => {
      const { endpoint, secret } = await webhooks().rotateSecret(await owner(request.params.id), request.params.webhook_id);
      return { success: true as const, webhook: { ...endpoint, secret } };
    },
  );
  app.post(
    '/tenants/:id/webhooks/:webhook_id/test',
    { schema: { tags, security, summary: 'Send a webhook.test event to this endpoint', params: endpointParams, response: { 200: TenantWebhookDeliveryOut } } },
    async (request) => ({ success: true as const, delivery: await webhooks().sendTest(await owner(request.params.id), request.params.webhook_id) }),
  );
  app.get(
    '/tenants/:id/webhooks/:webhook_id/deliveries',
    {
      schema: {
        tags,
        security,
        summary: 'Deliveries to this endpoint, newest first, with every attempt',
        params: endpointParams,
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(100).default(20), offset: z.coerce.number().int().min(0).default(0) }),
        response: { 200: TenantWebhookDeliveryListOut },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await webhooks().listDeliveries(await owner(request.params.id), request.params.webhook_id, request.query)),
    }),
  );
};
