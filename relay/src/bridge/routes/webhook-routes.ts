// /api/v1/webhooks: the application's webhook endpoints over the relay's one delivery engine
// (app.webhooks.service). The signing secret appears only in the answers of create and rotate-secret.
import {
  BridgeWebhookDeletedOut,
  BridgeWebhookDeliveriesOut,
  BridgeWebhookDeliveriesQuery,
  BridgeWebhookListOut,
  BridgeWebhookOut,
  BridgeWebhookTestOut,
  BridgeWebhookWithSecretOut,
  WebhookEndpointCreateIn,
  WebhookEndpointUpdateIn,
} from '@ledgerwire/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bridgeKeyOf } from './bridge-auth.js';
import { bridgeDocs } from './route-support.js';

const EndpointParams = z.object({ id: z.string().min(1).max(100) });

function ownerOf(request: FastifyRequest) {
  return { kind: 'application' as const, id: bridgeKeyOf(request).applicationId };
}

export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const webhooks = app.webhooks.service;

  app.get('/webhooks', { schema: { ...bridgeDocs('List webhook endpoints'), response: { 200: BridgeWebhookListOut } } }, async (request) => ({
    success: true as const,
    webhooks: await webhooks.listEndpoints(ownerOf(request)),
  }));

  app.post(
    '/webhooks',
    { schema: { ...bridgeDocs('Create a webhook endpoint (HTTPS); the signing secret is shown only here'), body: WebhookEndpointCreateIn, response: { 200: BridgeWebhookWithSecretOut } } },
    async (request) => {
      const { endpoint, secret } = await webhooks.createEndpoint(ownerOf(request), request.body);
      return { success: true as const, webhook: { ...endpoint, secret } };
    },
  );

  app.get('/webhooks/:id', { schema: { ...bridgeDocs('Get a webhook endpoint'), params: EndpointParams, response: { 200: BridgeWebhookOut } } }, async (request) => ({
    success: true as const,
    webhook: await webhooks.getEndpoint(ownerOf(request), request.params.id),
  }));

  app.patch(
    '/webhooks/:id',
    { schema: { ...bridgeDocs('Update a webhook endpoint (url, events, description, enabled)'), params: EndpointParams, body: WebhookEndpointUpdateIn, response: { 200: BridgeWebhookOut } } },
    async (request) => ({ success: true as const, webhook: await webhooks.updateEndpoint(ownerOf(request), request.params.id, request.body) }),
  );

  app.delete('/webhooks/:id', { schema: { ...bridgeDocs('Delete a webhook endpoint; delivery stops'), params: EndpointParams, response: { 200: BridgeWebhookDeletedOut } } }, async (request) => {
    await webhooks.deleteEndpoint(ownerOf(request), request.params.id);
    return { success: true as const, deleted: true as const, id: request.params.id };
  });

  app.post(
    '/webhooks/:id/rotate-secret',
    { schema: { ...bridgeDocs('Rotate the signing secret; the old one also signs for 24 hours'), params: EndpointParams, response: { 200: BridgeWebhookWithSecretOut } } },
    async (request) => {
      const { endpoint, secret } = await webhooks.rotateSecret(ownerOf(request), request.params.id);
      return { success: true as const, webhook: { ...endpoint, secret } };
    },
  );

  app.post('/webhooks/:id/test', { schema: { ...bridgeDocs('Send a test event to this endpoint'), params: EndpointParams, response: { 200: BridgeWebhookTestOut } } }, async (request) => ({
    success: true as const,
    delivery: await webhooks.sendTest(ownerOf(request), request.params.id),
  }));

  app.get(
    '/webhooks/:id/deliveries',
    { schema: { ...bridgeDocs('Delivery history of this endpoint, newest first, with every attempt'), params: EndpointParams, querystring: BridgeWebhookDeliveriesQuery, response: { 200: BridgeWebhookDeliveriesOut } } },
    async (request) => {
      const page = await webhooks.listDeliveries(ownerOf(request), request.params.id, request.query);
      return { success: true as const, total: page.total, deliveries: page.deliveries };
    },
  );
};
