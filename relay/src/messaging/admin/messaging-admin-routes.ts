// The messaging part of the operator API, mounted under /admin/v1 behind the operator token.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireOperator } from '../../operator/operator-auth.js';
import type { MessagingModule } from '../messaging-module.js';
import { templateAdminRoutes } from './template-admin-routes.js';
import { tenantAdminRoutes } from './tenant-admin-routes.js';
import { webhookAdminRoutes } from './webhook-admin-routes.js';

export function messagingAdminRoutes(messaging: MessagingModule): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', requireOperator(app.relay.operatorToken));
    await app.register(tenantAdminRoutes(messaging));
    await app.register(templateAdminRoutes(messaging));
    await app.register(webhookAdminRoutes(messaging));
  };
}
