// The console module: the pages at /console, the read-only queries they need under
// /admin/v1/console, and support's webhook actions there. It reads every other module, so it is
// registered last.
import fp from 'fastify-plugin';
import { consoleAssetRoutes } from './routes/console-asset-routes.js';
import { consoleBridgeRoutes } from './admin/console-bridge-routes.js';
import { consoleOperationsRoutes } from './admin/console-operations-routes.js';
import { consoleQueryRoutes } from './admin/console-query-routes.js';
import { consoleWebhookActionRoutes } from './admin/console-webhook-action-routes.js';

export const consolePlugin = fp(
  async (app) => {
    await app.register(consoleAssetRoutes);
    await app.register(consoleQueryRoutes, { prefix: '/admin/v1/console' });
    await app.register(consoleBridgeRoutes, { prefix: '/admin/v1/console' });
    await app.register(consoleWebhookActionRoutes, { prefix: '/admin/v1/console' });
    await app.register(consoleOperationsRoutes, { prefix: '/admin/v1/console' });
  },
  {
    name: 'ledgerwire-console',
    fastify: '5.x',
    dependencies: [
      'ledgerwire-config',
      'ledgerwire-database',
      'ledgerwire-operators',
      'ledgerwire-webhooks',
      'ledgerwire-messaging',
      'ledgerwire-bridge',
      'ledgerwire-connector-gateway',
    ],
  },
);
