// The web console for support and developers: the pages at /console and the read-only queries they
// need under /admin/v1/console. app.ts registers this one plugin.
import type { FastifyPluginAsync } from 'fastify';
import { consoleAssetRoutes } from './console-asset-routes.js';
import { consoleQueryRoutes } from './console-query-routes.js';

export const consolePlugin: FastifyPluginAsync = async (app) => {
  await app.register(consoleAssetRoutes);
  await app.register(consoleQueryRoutes, { prefix: '/admin/v1/console' });
};
