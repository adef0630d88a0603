// The accounting bridge API under /api/v1: every route here is behind the API-key hook (401 / 429)
// and the per-route authorisation chain. The connector gateway's enrolment and socket routes are a
// separate plugin with their own credentials.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../errors/catalogue.js';
import { requireBridgeKey } from './bridge-auth.js';
import { companyIdProblem, requestedCompanyId } from '../services/companies/company-scope.js';
import { connectSessionRoutes } from './connect-session-routes.js';
import { masterRoutes } from './master-routes.js';
import { pulledVoucherRoutes } from './pulled-voucher-routes.js';
import { tenancyRoutes } from './tenancy-routes.js';
import { transactionRoutes } from './transaction-routes.js';
import { voucherLifecycleRoutes } from './voucher-lifecycle-routes.js';
import { voucherWriteRoutes } from './voucher-write-routes.js';
import { webhookRoutes } from './webhook-routes.js';

export const bridgeApiRoutes: FastifyPluginAsyncZod = async (app) => {
  const bridge = app.bridge;
  app.addHook('onRequest', requireBridgeKey({ applications: bridge.applications, counter: bridge.keyRequests, limitPerMinute: bridge.config.rateLimitPerMinute }));
  // Body validation runs before the route names its company, so a bad company_id would go unmentioned
  // while the body has problems: note it now, and the error handler lists it first among them.
  app.addHook('preValidation', async (request) => {
    const problem = companyProblemOf(request.query, request.headers, request.routeOptions.config.companyScope === 'required');
    if (problem) request.problemsBeforeValidation = problem.details.length > 0 ? problem.details : [{ field: 'company_id', message: problem.message }];
  });
  await app.register(tenancyRoutes);
  await app.register(voucherWriteRoutes);
  await app.register(voucherLifecycleRoutes);
  await app.register(transactionRoutes);
  await app.register(pulledVoucherRoutes);
  await app.register(masterRoutes);
  await app.register(webhookRoutes);
  await app.register(connectSessionRoutes);
};

function companyProblemOf(query: unknown, headers: Parameters<typeof requestedCompanyId>[1], required: boolean): AppError | undefined {
  try {
    return companyIdProblem(requestedCompanyId(query, headers), required);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}
