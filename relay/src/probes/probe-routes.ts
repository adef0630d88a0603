// Unauthenticated probes: liveness for the messaging contract's health check, readiness for load balancers.
// /readyz is 503 when the database does not answer or a background loop is stuck (background/loop-health.ts);
// either way its body says which, with each loop's last pass, last error and the lag of its oldest due row.
import { HealthOut, ReadinessOut } from '@ledgerwire/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { loopReports } from './relay-loops.js';

export const probeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    { schema: { tags: ['probes'], summary: 'Liveness (messaging health check)', response: { 200: HealthOut } } },
    () => ({ status: 'ok' as const, service: 'messaging' as const }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        tags: ['probes'],
        summary: 'Readiness: 200 when the database answers and no background loop is stuck',
        description:
          'Lists every background loop with its last pass, last error and the lag of its oldest due row. A loop is stuck when ' +
          'no pass has ended for 5 of its intervals (and at least a minute) beyond the wait it scheduled itself; then, or when ' +
          'the database does not answer, the answer is 503.',
        response: { 200: ReadinessOut, 503: ReadinessOut },
      },
    },
    async (_request, reply) => {
      const databaseOk = await app.database.ping();
      const loops = await loopReports(app, databaseOk);
      const ok = databaseOk && loops.every((loop) => !loop.stuck);
      return reply.code(ok ? 200 : 503).send({ status: ok ? 'ready' : 'unavailable', database: databaseOk ? 'ok' : 'unreachable', loops });
    },
  );
};
