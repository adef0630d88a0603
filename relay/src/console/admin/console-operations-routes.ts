// The console's Operations page reads the relay's background loops here, behind the operator token:
// the same reports as /readyz (last pass, last error, lag of the oldest due row, stuck), always as a 200
// so the page can show a stuck loop instead of an error.
import { ConsoleBackgroundLoopsOut } from '@ledgerwire/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireOperator } from '../../operator/admin/operator-auth.js';
import { loopReports } from '../../probes/relay-loops.js';

export const consoleOperationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireOperator(app.operators.token));
  app.get(
    '/background-loops',
    {
      schema: {
        tags: ['console'],
        summary: 'Each background loop’s last pass, last error, oldest due row’s lag and whether it is stuck',
        security: [{ operatorToken: [] }],
        response: { 200: ConsoleBackgroundLoopsOut },
      },
    },
    async () => {
      const databaseOk = await app.database.ping();
      const loops = await loopReports(app, databaseOk);
      const ready = databaseOk && loops.every((loop) => !loop.stuck);
      return { success: true as const, readiness: ready ? ('ready' as const) : ('unavailable' as const), loops };
    },
  );
};
