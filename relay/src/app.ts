// Builds the relay as a Fastify app from a config. Never listens: server.ts does, tests use inject().
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RelayConfig } from './config/load-config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { registerErrorHandling } from './errors/error-handler.js';
import { registerOpenApi } from './http/openapi.js';
import { ensureInstallationId } from './operator/installation.js';
import { operatorRoutes } from './operator/operator-routes.js';
import { ensureOperatorToken } from './operator/operator-token.js';
import { probeRoutes } from './probes/probe-routes.js';
import type { RelayContext } from './relay-context.js';

export type BuildAppOptions = Readonly<{
  /** Pino destination override (tests pass a stream to read logs). */
  logStream?: NodeJS.WritableStream;
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
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  registerErrorHandling(app);

  const database = openDatabase(config.database);
  app.addHook('onClose', () => database.destroy());
  await migrateToLatest(database.db, database.capabilities);

  const context: RelayContext = Object.freeze({
    config,
    database,
    operatorToken: ensureOperatorToken({ dataDir: config.dataDir, envToken: config.adminToken }),
    installationId: await ensureInstallationId(database.db),
  });
  app.decorate('relay', context);

  await registerOpenApi(app, config.publicUrl);
  await app.register(probeRoutes);
  await app.register(operatorRoutes, { prefix: '/admin/v1' });
  return app;
}
