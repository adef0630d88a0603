// The messaging module: builds the service (messaging-module.ts) and puts it on the app as
// `app.messaging`; registers the tenant API under /api, the providers' webhooks and the operator
// resources under /admin/v1; runs its loops when the app is ready (with RELAY_WORKERS on) and stops
// them before the database closes.
import fp from 'fastify-plugin';
import { messagingAdminRoutes } from './admin/messaging-admin-routes.js';
import { messagingRoutes } from './routes/messaging-routes.js';
import { providerWebhookRoutes } from './routes/provider-webhook-routes.js';
import { createMessagingModule, type MessagingModule } from './messaging-module.js';

declare module 'fastify' {
  interface FastifyInstance {
    messaging: MessagingModule;
  }
}

export const messagingPlugin = fp(
  async (app) => {
    const messaging = createMessagingModule({
      config: app.config,
      database: app.database,
      log: app.log.child({ component: 'messaging' }),
      now: app.clock.now,
      webhooks: () => app.webhooks.service,
    });
    app.decorate('messaging', messaging);
    if (app.config.workersEnabled) app.addHook('onReady', async () => messaging.start());
    app.addHook('preClose', () => messaging.stop());
    await app.register(messagingRoutes);
    await app.register(providerWebhookRoutes);
    await app.register(messagingAdminRoutes, { prefix: '/admin/v1' });
  },
  {
    name: 'ledgerwire-messaging',
    fastify: '5.x',
    dependencies: ['ledgerwire-config', 'ledgerwire-clock', 'ledgerwire-database', 'ledgerwire-operators', 'ledgerwire-webhooks'],
  },
);
