// Builds the relay as a Fastify app from a config. Never listens: server.ts does, tests use inject().
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RelayConfig } from './config/load-config.js';
import { openDatabase, type RelayDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { MAX_PATH_PARAM_LENGTH, registerErrorHandling, routerErrorHandler } from './errors/error-handler.js';
import { registerExactJsonBody } from './http/exact-json-body.js';
import { registerOpenApi } from './http/openapi.js';
import { ensureInstallationId } from './operator/installation.js';
import { operatorRoutes } from './operator/operator-routes.js';
import { ensureOperatorToken } from './operator/operator-token.js';
import { probeRoutes } from './probes/probe-routes.js';
import type { RelayContext } from './relay-context.js';
import { createWebhookDeliveryLoop } from './webhooks/webhook-delivery-loop.js';
import { webhookOperatorRoutes } from './webhooks/webhook-operator-routes.js';
import { WebhookService } from './webhooks/webhook-service.js';
import { WEBHOOK_EVENT_TYPES } from '@ledgerwire/shared';
import { createMessagingModule } from './messaging/messaging-module.js';
import { registerMessaging } from './messaging/messaging-plugin.js';
import { registerBridge } from './bridge/bridge-plugin.js';
import { createBridgeServices } from './bridge/bridge-services.js';
import { registerConnectorGateway } from './bridge/gateway/register-connector-gateway.js';
import { consolePlugin } from './console/console-plugin.js';

export type BuildAppOptions = Readonly<{
  /** Pino destination override (tests pass a stream to read logs). */
  logStream?: NodeJS.WritableStream;
  /** Time source for messaging limits and signature freshness (tests pin it); default Date.now. */
  now?: () => number;
}>;

export async function buildApp(config: RelayConfig, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.secret', '*.token', '*.api_key'], censor: '[redacted]' },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    requestIdHeader: 'x-request-id',
    genReqId: () => `req_${randomUUID()}`,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH },
    frameworkErrors: routerErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerErrorHandling(app);
  registerExactJsonBody(app);

  const database = openDatabase(config.database);
  app.addHook('onClose', () => database.destroy());
  await migrateToLatest(database.db, database.capabilities);

  const context: RelayContext = Object.freeze({
    config,
    database,
    operatorToken: ensureOperatorToken({ dataDir: config.dataDir, envToken: config.adminToken }),
    installationId: await ensureInstallationId(database.db),
    ...webhookEngine(app, config, database),
    messaging: createMessagingModule({
      config,
      database,
      log: app.log.child({ component: 'messaging' }),
      ...(options.now ? { now: options.now } : {}),
      webhooks: () => app.relay.webhooks,
    }),
    bridge: createBridgeServices({ database, config: config.bridge, log: app.log.child({ component: 'bridge' }), events: () => app.relay.webhooks }),
  });
  app.decorate('relay', context);

  await registerOpenApi(app, config.publicUrl);
  await app.register(probeRoutes);
  await app.register(operatorRoutes, { prefix: '/admin/v1' });
  await app.register(webhookOperatorRoutes, { prefix: '/admin/v1' });
  await registerMessaging(app);
  await registerBridge(app);
  await registerConnectorGateway(app);
  await app.register(consolePlugin);
  return app;
}

/** The webhook service and its delivery loop; the loop runs only with RELAY_WORKERS on, and stops before the database closes. */
function webhookEngine(app: FastifyInstance, config: RelayConfig, database: RelayDatabase) {
  const webhookDeliveryLoop = createWebhookDeliveryLoop({
    db: database.db,
    capabilities: database.capabilities,
    allowPrivateUrls: config.webhookAllowPrivateUrls,
    log: app.log.child({ component: 'webhooks' }),
  });
  if (config.workersEnabled) app.addHook('onReady', async () => webhookDeliveryLoop.start());
  app.addHook('preClose', () => webhookDeliveryLoop.stop());
  const webhooks = new WebhookService({
    db: database.db,
    capabilities: database.capabilities,
    allowPrivateUrls: config.webhookAllowPrivateUrls,
    eventTypes: WEBHOOK_EVENT_TYPES,
    wake: () => webhookDeliveryLoop.wake(),
  });
  return { webhooks, webhookDeliveryLoop };
}
