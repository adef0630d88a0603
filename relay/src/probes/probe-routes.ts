// Unauthenticated probes: liveness for the messaging contract's health check, readiness for load balancers.
import { HealthOut, ReadinessOut } from '@ledgerwire/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const probeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    { schema: { tags: ['probes'], summary: 'Liveness (messaging health check)', response: { 200: HealthOut } } },
    () => ({ status: 'ok' as const, service: 'messaging' as const }),
  );
  app.get(
    '/readyz',
    { schema: { tags: ['probes'], summary: 'Readiness: 200 when the database answers', response: { 200: ReadinessOut, 503: ReadinessOut } } },
    async (_request, reply) => {
      const ok = await app.relay.database.ping();
      return reply
        .code(ok ? 200 : 503)
        .send({ status: ok ? 'ready' : 'unavailable', database: ok ? 'ok' : 'unreachable' });
    },
  );
};
