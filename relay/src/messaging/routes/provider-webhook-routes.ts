// Inbound provider webhooks: POST /api/webhooks/{provider}. Authenticated by the provider's signature,
// not an API key. The signature covers the exact bytes, so this plugin (and only it) keeps JSON
// bodies raw.
import { MessagingErrorOut, ProviderWebhookOut } from '@ledgerwire/shared';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../errors/catalogue.js';
import { SENDGRID_SIGNATURE_HEADER, SENDGRID_TIMESTAMP_HEADER } from '../services/provider-webhooks/sendgrid-signature.js';

export const providerWebhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const messaging = app.messaging;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post(
    '/api/webhooks/:provider',
    {
      schema: {
        tags: ['messaging'],
        summary: 'Provider event webhook (sendgrid: Signed Event Webhook, ECDSA P-256)',
        params: z.object({ provider: z.string().min(1).max(40) }),
        response: { 200: ProviderWebhookOut, 403: MessagingErrorOut, 404: MessagingErrorOut, 429: MessagingErrorOut },
      },
    },
    (request) => {
      if (request.params.provider !== 'sendgrid') throw new AppError('unknown_provider');
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const header = (name: string) => {
        const value = request.headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      return messaging.providerWebhooks.receiveSendGrid(body, header(SENDGRID_SIGNATURE_HEADER), header(SENDGRID_TIMESTAMP_HEADER));
    },
  );
};
