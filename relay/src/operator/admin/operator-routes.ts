// The operator API tree under /admin/v1. Every route here is behind the operator token; services
// add their resources as child plugins of this one.
import { WhoamiOut } from '@ledgerwire/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../errors/catalogue.js';
import { RELAY_VERSION } from '../../version.js';
import type { OperatorIdentity } from '../services/operator-account-service.js';
import { requireOperator } from './operator-auth.js';
import { operatorAccountRoutes } from './operator-account-routes.js';

export const operatorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireOperator(app.operators.token));

  app.get(
    '/whoami',
    {
      schema: {
        tags: ['operator'],
        summary: 'Who the operator credential belongs to (account or bootstrap token, role) and the relay that answered',
        security: [{ operatorToken: [] }],
        response: { 200: WhoamiOut },
      },
    },
    (request) => ({
      success: true as const,
      operator: whoamiOperator(request.operator),
      relay: {
        installation_id: app.operators.installationId,
        version: RELAY_VERSION,
        database: app.database.capabilities.dialect,
        console_url: `${app.config.publicUrl}/console`,
      },
    }),
  );

  await app.register(operatorAccountRoutes);
};

function whoamiOperator(operator: OperatorIdentity | undefined) {
  if (operator === undefined) throw new AppError('operator_token_missing');
  return { kind: operator.kind, id: operator.id, name: operator.name, role: operator.role, token_source: operator.tokenSource };
}
