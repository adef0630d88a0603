// The accounting bridge module: builds its services (bridge-services.ts) and puts them on the app as
// `app.bridge`; registers the /api/v1 routes and its operator routes under /admin/v1; runs the lease
// reaper when the app is ready (with RELAY_WORKERS on) and stops it before the database closes.
import fp from 'fastify-plugin';
import { keyedDigestFor } from '../security/encryption-key.js';
import { bridgeApiRoutes } from './routes/bridge-api-routes.js';
import { createBridgeServices, type BridgeServices } from './bridge-services.js';
import { bridgeOperatorRoutes } from './admin/bridge-operator-routes.js';
import { bridgeSupportRoutes } from './admin/bridge-support-routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    bridge: BridgeServices;
  }
}

export const bridgePlugin = fp(
  async (app) => {
    const { config, database } = app;
    const bridge = createBridgeServices({
      database,
      config: config.bridge,
      publicUrl: config.publicUrl,
      keyedDigest: (purpose) => keyedDigestFor(config, purpose),
      log: app.log.child({ component: 'bridge' }),
      events: () => app.webhooks.service,
      clock: app.clock,
    });
    app.decorate('bridge', bridge);
    if (config.workersEnabled) app.addHook('onReady', async () => bridge.leaseReaper.start());
    app.addHook('preClose', () => bridge.leaseReaper.stop());
    await app.register(bridgeApiRoutes, { prefix: '/api/v1' });
    await app.register(bridgeOperatorRoutes, { prefix: '/admin/v1' });
    await app.register(bridgeSupportRoutes, { prefix: '/admin/v1' });
  },
  {
    name: 'ledgerwire-bridge',
    fastify: '5.x',
    dependencies: ['ledgerwire-config', 'ledgerwire-clock', 'ledgerwire-database', 'ledgerwire-operators', 'ledgerwire-webhooks'],
  },
);
