// Operator routes for webhook support (console): look at any delivery with its attempts and the exact
// body sent, and send it again. Registered under /admin/v1, behind the operator token.
import { WebhookDeliveryDetailOut } from '@ledgerwire/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireOperator } from '../../operator/admin/operator-auth.js';
import type { WebhookDeliveryDetail } from '../services/webhook-service.js';

const DeliveryParams = z.object({ id: z.string().min(1).max(100).describe('dlv_…') });

function detailBody(detail: WebhookDeliveryDetail): WebhookDeliveryDetailOut {
  return { success: true, delivery: { ...detail.delivery, owner: detail.owner, endpoint_url: detail.endpoint_url, payload: detail.payload } };
}

export const webhookOperatorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireOperator(app.operators.token));

  app.get(
    '/webhook-deliveries/:id',
    {
      schema: {
        tags: ['operator'],
        summary: 'A webhook delivery of any tenant or application, with its attempts and body',
        security: [{ operatorToken: [] }],
        params: DeliveryParams,
        response: { 200: WebhookDeliveryDetailOut },
      },
    },
    async (request) => detailBody(await app.webhooks.service.getDeliveryForOperator(request.params.id)),
  );

  app.post(
    '/webhook-deliveries/:id/redeliver',
    {
      schema: {
        tags: ['operator'],
        summary: 'Send a webhook delivery again (a finished one becomes a new delivery of the same event)',
        security: [{ operatorToken: [] }],
        params: DeliveryParams,
        response: { 200: WebhookDeliveryDetailOut },
      },
    },
    async (request) => detailBody(await app.webhooks.service.redeliverForOperator(request.params.id)),
  );
};
