// Builds the relay as a Fastify app from a config. Never listens: server.ts does, tests use inject().
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RelayConfig } from './config/load-config.js';
import { openDatabase, type RelayDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { MAX_PATH_PARAM_LENGTH, registerErrorHandling, routerErrorHandler } from './errors/error-handler.js';
import { registerExactJsonBody } from './http/exact-json-body.js';
import { registerOpenApi } from './http/openapi.js';
import { clientErrorHandler, registerRequestEdge } from './http/request-edge.js';
import { registerRequestLog } from './http/request-log.js';
import { endUpgradesWhileClosing } from './http/upgrades-while-closing.js';
import { strictValidatorCompiler } from './http/strict-integer-params.js';
import { ensureInstallationId } from './operator/installation.js';
import { registerOperatorAccounts } from './operator/operator-module.js';
import { operatorRoutes } from './operator/operator-routes.js';
import { ensureOperatorToken } from './operator/operator-token.js';
import { probeRoutes } from './probes/probe-routes.js';
import { keyedDigestFor, secretBoxFor } from './security/encryption-key.js';
import type { SecretBox } from './security/secret-box.js';
import type { RelayContext } from './relay-context.js';
import { createWebhookDeliveryLoop } from './webhooks/webhook-delivery-loop.js';
import { sealClearWebhookSecrets } from './webhooks/webhook-endpoint-repository.js';
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

/** TRUST_PROXY for Fastify: n hops becomes "the n peers nearest us"; addresses and ranges pass as they are. */
function trustedProxies(setting: RelayConfig['trustProxy']): string | false | ((address: string, hop: number) => boolean) {
  if (setting === undefined) return false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting;
}

export async function buildApp(config: RelayConfig, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.secret', '*.token', '*.api_key'], censor: '[redacted]' },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    // One line per request instead of Fastify's two, at the level REQUEST_LOG sets (http/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: 'x-request-id',
    // The client's address behind a reverse proxy, for per-address limits and the audit log (TRUST_PROXY).
    trustProxy: trustedProxies(config.trustProxy),
    genReqId: () => `req_${randomUUID()}`,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH },
    frameworkErrors: routerErrorHandler,
    clientErrorHandler,
    // A silent logger writes nothing, so a child logger per request (pino copies the bindings and the
    // redaction set up) would be work for nothing: requests share the root one.
    ...(config.logLevel === 'silent' ? { childLoggerFactory: (logger: FastifyBaseLogger) => logger } : {}),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(strictValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Callback style, not async: no promise per request for a hook that never waits.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  registerRequestLog(app, config.requestLog);
  endUpgradesWhileClosing(app);
  registerErrorHandling(app);
  registerRequestEdge(app);
  registerExactJsonBody(app);

  const database = openDatabase(config.database, {
    onBackgroundError: (error) => app.log.warn({ err: error }, 'the SQLite checkpoint thread failed: SQLite checkpoints on its own connection again'),
  });
  app.addHook('onClose', () => database.destroy());
  await migrateToLatest(database.db, database.capabilities);
  const secretBox = secretBoxFor(config);
  if (config.database.kind === 'postgres' && config.encryptionKey === undefined) {
    // Another relay on this database has its own DATA_DIR, hence its own key file: it could not sign.
    app.log.warn('RELAY_ENCRYPTION_KEY is not set: webhook secrets are encrypted with a key file in DATA_DIR; with several relays on this database, set the same RELAY_ENCRYPTION_KEY on every one');
  }
  const sealed = await sealClearWebhookSecrets(database.db, secretBox);
  if (sealed > 0) app.log.info({ endpoints: sealed }, 'webhook signing secrets stored in clear were encrypted');

  const context: RelayContext = Object.freeze({
    config,
    database,
    operatorToken: ensureOperatorToken({ dataDir: config.dataDir, envToken: config.adminToken }),
    installationId: await ensureInstallationId(database.db),
    ...webhookEngine(app, config, database, secretBox),
    messaging: createMessagingModule({
      config,
      database,
      log: app.log.child({ component: 'messaging' }),
      ...(options.now ? { now: options.now } : {}),
      webhooks: () => app.relay.webhooks,
    }),
    bridge: createBridgeServices({
      database,
      config: config.bridge,
      publicUrl: config.publicUrl,
      keyedDigest: (purpose) => keyedDigestFor(config, purpose),
      log: app.log.child({ component: 'bridge' }),
      events: () => app.relay.webhooks,
    }),
  });
  app.decorate('relay', context);
  // Before any /admin/v1 route: authenticates operators, checks roles, writes the audit log.
  registerOperatorAccounts(app);

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
function webhookEngine(app: FastifyInstance, config: RelayConfig, database: RelayDatabase, secretBox: SecretBox) {
  const webhookDeliveryLoop = createWebhookDeliveryLoop({
    db: database.db,
    capabilities: database.capabilities,
    allowPrivateUrls: config.webhookAllowPrivateUrls,
    secretBox,
    log: app.log.child({ component: 'webhooks' }),
  });
  if (config.workersEnabled) app.addHook('onReady', async () => webhookDeliveryLoop.start());
  app.addHook('preClose', () => webhookDeliveryLoop.stop());
  const webhooks = new WebhookService({
    db: database.db,
    capabilities: database.capabilities,
    allowPrivateUrls: config.webhookAllowPrivateUrls,
    eventTypes: WEBHOOK_EVENT_TYPES,
    secretBox,
    wake: () => webhookDeliveryLoop.wake(),
  });
  return { webhooks, webhookDeliveryLoop };
}
