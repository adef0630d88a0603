// Support's webhook actions on an endpoint of any tenant or application (the console's webhooks page,
// as Svix's dashboard has them): send a test event, disable or enable, delete. Under
// /admin/v1/console behind the operator token; the owner is named in the query, so an endpoint id of
// another owner is a 404, as in the owners' own APIs. The webhook service does the work.
import {
  ConsoleWebhookDeletedOut,
  ConsoleWebhookEndpointEnvelopeOut,
  ConsoleWebhookOwnerQuery,
  ConsoleWebhookStateIn,
  ConsoleWebhookTestOut,
} from '@ledgerwire/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireOperator } from '../../operator/admin/operator-auth.js';

const docs = (summary: string) => ({ tags: ['console'], summary, security: [{ operatorToken: [] }] });
const EndpointParams = z.object({ endpoint_id: z.string().min(1).max(100) });

export const consoleWebhookActionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireOperator(app.operators.token));
  const webhooks = app.webhooks.service;
  const ownerOf = (query: ConsoleWebhookOwnerQuery) => ({ kind: query.owner_kind, id: query.owner_id });

  app.post(
    '/webhooks/:endpoint_id/test',
    {
      schema: {
        ...docs('Send a webhook.test event to this endpoint (whatever its event filter)'),
        params: EndpointParams,
        querystring: ConsoleWebhookOwnerQuery,
        response: { 200: ConsoleWebhookTestOut },
      },
    },
    async (request) => ({ success: true as const, delivery: await webhooks.sendTest(ownerOf(request.query), request.params.endpoint_id) }),
  );

  app.post(
    '/webhooks/:endpoint_id/state',
    {
      schema: {
        ...docs('Disable an endpoint (pending deliveries are cancelled) or enable it again'),
        params: EndpointParams,
        querystring: ConsoleWebhookOwnerQuery,
        body: ConsoleWebhookStateIn,
        response: { 200: ConsoleWebhookEndpointEnvelopeOut },
      },
    },
    async (request) => ({
      success: true as const,
      webhook: await webhooks.updateEndpoint(ownerOf(request.query), request.params.endpoint_id, { enabled: request.body.enabled }),
    }),
  );

  app.delete(
    '/webhooks/:endpoint_id',
    {
      schema: {
        ...docs('Delete an endpoint: nothing more is sent to it; its delivery history stays'),
        params: EndpointParams,
        querystring: ConsoleWebhookOwnerQuery,
        response: { 200: ConsoleWebhookDeletedOut },
      },
    },
    async (request) => {
      await webhooks.deleteEndpoint(ownerOf(request.query), request.params.endpoint_id);
      return { success: true as const, deleted: true as const };
    },
  );
};
