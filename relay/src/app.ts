// Builds the relay as a Fastify app from a config. Never listens: server.ts does, tests use inject().
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { bridgePlugin } from './bridge/bridge-plugin.js';
import { connectorGatewayPlugin } from './gateway/gateway-plugin.js';
import { configPlugin } from './config/config-plugin.js';
import type { RelayConfig } from './config/load-config.js';
import { consolePlugin } from './console/console-plugin.js';
import { databasePlugin } from './db/database-plugin.js';
import { MAX_PATH_PARAM_LENGTH, registerErrorHandling, routerErrorHandler } from './errors/error-handler.js';
import { registerExactJsonBody } from './http/exact-json-body.js';
import { registerOpenApi } from './http/openapi.js';
import { clientErrorHandler, registerRequestEdge } from './http/request-edge.js';
import { registerRequestLog } from './http/request-log.js';
import { strictValidatorCompiler } from './http/strict-integer-params.js';
import { endUpgradesWhileClosing } from './http/upgrades-while-closing.js';
import { clockPlugin } from './foundation/clock-plugin.js';
import { messagingPlugin } from './messaging/messaging-plugin.js';
import { operatorPlugin } from './operator/operator-plugin.js';
import { probeRoutes } from './probes/probe-routes.js';
import { webhooksPlugin } from './webhooks/webhooks-plugin.js';

export type BuildAppOptions = Readonly<{
  /** Pino destination override (tests pass a stream to read logs). */
  logStream?: NodeJS.WritableStream;
  /** The relay's clock (foundation/clock.ts): every module reads time from it; tests pin and move it. Default Date.now. */
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
    // Module plugins wait on the database (migrations on a large or busy one take minutes, not Fastify's
    // default 10 s); a database that does not answer fails its own connection timeout instead.
    pluginTimeout: 0,
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

  // The modules, each a named plugin that declares the ones it needs (a missing or misordered one stops
  // the start with Fastify's own error) and closes what it opens.
  // OpenAPI first: it documents every route registered after it.
  await registerOpenApi(app, config.publicUrl);
  await app.register(configPlugin, { config });
  await app.register(clockPlugin, options.now ? { now: options.now } : {});
  await app.register(databasePlugin);
  // Before any other /admin/v1 route: authenticates operators, checks roles, writes the audit log.
  await app.register(operatorPlugin);
  await app.register(probeRoutes);
  await app.register(webhooksPlugin);
  await app.register(messagingPlugin);
  await app.register(bridgePlugin);
  await app.register(connectorGatewayPlugin);
  await app.register(consolePlugin);
  return app;
}
