// The hosted connect page's own calls, under the page token its URL carries (no other credential):
// its state (polled while the shop owner installs and connects), the choice of TallyPrime company, and
// the connector installer when the relay is deployed with one. Paths carry the token, so these stay
// out of the info-level request log. The page itself is served by the console (console-asset-routes.ts).
import { ConnectPageChooseIn, ConnectPageOut, ErrorEnvelopeOut } from '@ledgerwire/shared';
import fs from 'node:fs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors/catalogue.js';

const TokenParams = z.object({ token: z.string().min(1).max(200) });
const tags = ['connect page'];
const description = 'Called by the hosted connect page; the path carries the page token from the connect session\'s url.';

export const connectPageRoutes: FastifyPluginAsyncZod = async (app) => {
  const page = app.gateway.connectPage;
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').header('x-robots-tag', 'noindex');
  });

  app.get(
    '/connect/:token/state',
    { logLevel: 'warn', schema: { tags, summary: 'The connect page\'s progress', description, params: TokenParams, response: { 200: ConnectPageOut, 404: ErrorEnvelopeOut } } },
    async (request) => page.view(request.params.token),
  );

  app.post(
    '/connect/:token/choose',
    {
      logLevel: 'warn',
      schema: { tags, summary: 'Choose which TallyPrime company is the session\'s company (pairs it)', description, params: TokenParams, body: ConnectPageChooseIn, response: { 200: ConnectPageOut } },
    },
    async (request) => page.choose(request.params.token, request.body.books_company_guid),
  );

  app.get(
    '/connect/:token/installer',
    { logLevel: 'warn', schema: { tags, summary: 'Download the connector installer for Windows', description, params: TokenParams } },
    async (request, reply) => {
      await page.view(request.params.token);
      const installer = await page.installerFacts();
      if (!installer) throw new AppError('not_found', { message: 'This relay offers no connector installer: ask your software provider for it' });
      return reply
        .type('application/octet-stream')
        .header('content-disposition', `attachment; filename="${installer.fileName.replace(/["\\\r\n]/g, '_')}"`)
        .header('content-length', String(installer.sizeBytes))
        .send(fs.createReadStream(installer.path));
    },
  );
};
