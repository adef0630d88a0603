// The messaging part of the operator API, mounted under /admin/v1 behind the operator token.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireOperator } from '../../operator/admin/operator-auth.js';
import { templateAdminRoutes } from './template-admin-routes.js';
import { tenantAdminRoutes } from './tenant-admin-routes.js';
import { webhookAdminRoutes } from './webhook-admin-routes.js';

export const messagingAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireOperator(app.operators.token));
  await app.register(tenantAdminRoutes);
  await app.register(templateAdminRoutes);
  await app.register(webhookAdminRoutes);
};
