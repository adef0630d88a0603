// The webhooks module: the one delivery engine both products publish through (on the app as
// `app.webhooks`), its delivery loop (run only with RELAY_WORKERS on, stopped before the database
// closes) and the operator routes that show and resend a delivery.
import fp from 'fastify-plugin';
import { WEBHOOK_EVENT_TYPES } from '@ledgerwire/shared';
import type { BackgroundLoop } from '../background/background-loop.js';
import { secretBoxFor } from '../security/encryption-key.js';
import { createWebhookDeliveryLoop } from './workers/webhook-delivery-loop.js';
import { sealClearWebhookSecrets } from './store/webhook-endpoint-repository.js';
import { webhookOperatorRoutes } from './admin/webhook-operator-routes.js';
import { WebhookService } from './services/webhook-service.js';

export type WebhookModule = Readonly<{
  /** Endpoints, publishing into the outbox, deliveries for support. */
  service: WebhookService;
  deliveryLoop: BackgroundLoop;
  /** The module's background loops, for /readyz and the console. */
  loops: readonly BackgroundLoop[];
}>;

declare module 'fastify' {
  interface FastifyInstance {
    webhooks: WebhookModule;
  }
}

export const webhooksPlugin = fp(
  async (app) => {
    const { config, database } = app;
    const secretBox = secretBoxFor(config);
    if (config.database.kind === 'postgres' && config.encryptionKey === undefined) {
      // Another relay on this database has its own DATA_DIR, hence its own key file: it could not sign.
      app.log.warn('RELAY_ENCRYPTION_KEY is not set: webhook secrets are encrypted with a key file in DATA_DIR; with several relays on this database, set the same RELAY_ENCRYPTION_KEY on every one');
    }
    const sealed = await sealClearWebhookSecrets(database.db, secretBox);
    if (sealed > 0) app.log.info({ endpoints: sealed }, 'webhook signing secrets stored in clear were encrypted');

    const deliveryLoop = createWebhookDeliveryLoop({
      db: database.db,
      capabilities: database.capabilities,
      allowPrivateUrls: config.webhookAllowPrivateUrls,
      secretBox,
      clock: app.clock.date,
      log: app.log.child({ component: 'webhooks' }),
    });
    const service = new WebhookService({
      db: database.db,
      capabilities: database.capabilities,
      allowPrivateUrls: config.webhookAllowPrivateUrls,
      eventTypes: WEBHOOK_EVENT_TYPES,
      secretBox,
      clock: app.clock.date,
      wake: () => deliveryLoop.wake(),
    });
    app.decorate('webhooks', Object.freeze({ service, deliveryLoop, loops: [deliveryLoop] }));
    if (config.workersEnabled) app.addHook('onReady', async () => deliveryLoop.start());
    app.addHook('preClose', () => deliveryLoop.stop());
    await app.register(webhookOperatorRoutes, { prefix: '/admin/v1' });
  },
  { name: 'ledgerwire-webhooks', fastify: '5.x', dependencies: ['ledgerwire-config', 'ledgerwire-clock', 'ledgerwire-database', 'ledgerwire-operators'] },
);
