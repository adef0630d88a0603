// Registers the accounting bridge on the app: the /api/v1 routes, its operator routes under
// /admin/v1, and the lease reaper (started only with RELAY_WORKERS on, stopped before the database closes).
import type { FastifyInstance } from 'fastify';
import { bridgeApiRoutes } from './bridge-api-routes.js';
import { bridgeOperatorRoutes } from './operator/bridge-operator-routes.js';
import { bridgeSupportRoutes } from './operator/bridge-support-routes.js';

export async function registerBridge(app: FastifyInstance): Promise<void> {
  const { leaseReaper } = app.relay.bridge;
  if (app.relay.config.workersEnabled) app.addHook('onReady', async () => leaseReaper.start());
  app.addHook('preClose', () => leaseReaper.stop());
  await app.register(bridgeApiRoutes, { prefix: '/api/v1' });
  await app.register(bridgeOperatorRoutes, { prefix: '/admin/v1' });
  await app.register(bridgeSupportRoutes, { prefix: '/admin/v1' });
}
