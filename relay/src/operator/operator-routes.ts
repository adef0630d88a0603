// The operator API tree under /admin/v1. Every route here is behind the operator token; services
// add their resources as child plugins of this one.
import { WhoamiOut } from '@ledgerwire/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { RELAY_VERSION } from '../version.js';
import { requireOperator } from './operator-auth.js';

export const operatorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireOperator(app.relay.operatorToken));

  app.get(
    '/whoami',
    {
      schema: {
        tags: ['operator'],
        summary: 'The operator credential and the relay that answered',
        security: [{ operatorToken: [] }],
        response: { 200: WhoamiOut },
      },
    },
    () => ({
      success: true as const,
      operator: { role: 'operator' as const, token_source: app.relay.operatorToken.source },
      relay: {
        installation_id: app.relay.installationId,
        version: RELAY_VERSION,
        database: app.relay.database.capabilities.dialect,
        console_url: `${app.relay.config.publicUrl}/console`,
      },
    }),
  );
};
