// The accounting bridge API under /api/v1: every route here is behind the API-key hook (401 / 429)
// and the per-route authorisation chain. The connector gateway's enrolment and socket routes are a
// separate plugin with their own credentials.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireBridgeKey } from './auth/bridge-auth.js';
import { connectSessionRoutes } from './routes/connect-session-routes.js';
import { masterRoutes } from './routes/master-routes.js';
import { pulledVoucherRoutes } from './routes/pulled-voucher-routes.js';
import { tenancyRoutes } from './routes/tenancy-routes.js';
import { transactionRoutes } from './routes/transaction-routes.js';
import { voucherLifecycleRoutes } from './routes/voucher-lifecycle-routes.js';
import { voucherWriteRoutes } from './routes/voucher-write-routes.js';
import { webhookRoutes } from './routes/webhook-routes.js';

export const bridgeApiRoutes: FastifyPluginAsyncZod = async (app) => {
  const bridge = app.relay.bridge;
  app.addHook('onRequest', requireBridgeKey({ applications: bridge.applications, counter: bridge.keyRequests, limitPerMinute: bridge.config.rateLimitPerMinute }));
  await app.register(tenancyRoutes);
  await app.register(voucherWriteRoutes);
  await app.register(voucherLifecycleRoutes);
  await app.register(transactionRoutes);
  await app.register(pulledVoucherRoutes);
  await app.register(masterRoutes);
  await app.register(webhookRoutes);
  await app.register(connectSessionRoutes);
};
