// Mounts the messaging service on the relay app: the tenant API under /api, provider webhooks, the
// operator resources under /admin/v1, and the background loops' lifecycle (started when the app is
// ready if RELAY_WORKERS is on, stopped before the database closes).
import type { FastifyInstance } from 'fastify';
import { messagingAdminRoutes } from './admin/messaging-admin-routes.js';
import { messagingRoutes } from './http/messaging-routes.js';
import { providerWebhookRoutes } from './http/provider-webhook-routes.js';

export async function registerMessaging(app: FastifyInstance): Promise<void> {
  const { messaging, config } = app.relay;
  if (config.workersEnabled) app.addHook('onReady', async () => messaging.start());
  app.addHook('preClose', () => messaging.stop());
  await app.register(messagingRoutes(messaging));
  await app.register(providerWebhookRoutes(messaging));
  await app.register(messagingAdminRoutes(messaging), { prefix: '/admin/v1' });
}
