// Transactions: one by public job id or the caller's own id, a company's list, and the jobs a
// connector handled (the diagnostic order's third step).
import { ConnectorJobsOut, TransactionListOut, TransactionListQuery, TransactionOut } from '@ledgerwire/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bridgeKeyOf } from './bridge-auth.js';
import { requestedCompanyId } from '../services/companies/company-scope.js';
import { bridgeDocs, COMPANY_REQUIRED, scopedCompany } from './route-support.js';

export const transactionRoutes: FastifyPluginAsyncZod = async (app) => {
  const bridge = app.bridge;

  app.get(
    '/transactions/:job',
    {
      schema: {
        ...bridgeDocs('One transaction, by the public job_id or your own transaction_id (company_id narrows the search)'),
        params: z.object({ job: z.string().min(1).max(200) }),
        querystring: z.object({ company_id: z.string().optional() }),
        response: { 200: TransactionOut },
      },
    },
    async (request) => {
      const key = bridgeKeyOf(request);
      const named = requestedCompanyId(request.query, request.headers);
      const company = named === undefined ? undefined : await scopedCompany(app, request);
      return { success: true as const, transaction: await bridge.transactions.get(key.applicationId, request.params.job, { companyId: company?.id }) };
    },
  );

  app.get(
    '/transactions',
    { config: COMPANY_REQUIRED, schema: { ...bridgeDocs('Transactions of a company, newest first', { companyScoped: true }), querystring: TransactionListQuery, response: { 200: TransactionListOut } } },
    async (request) => {
      const company = await scopedCompany(app, request);
      const { status, job_type, limit, offset } = request.query;
      const page = await bridge.transactions.list(company.id, { ...(status ? { status } : {}), ...(job_type ? { job_type } : {}), limit, offset });
      return { success: true as const, company_id: company.id, total: page.total, count: page.transactions.length, transactions: page.transactions };
    },
  );

  app.get(
    '/connectors/:machine/jobs',
    {
      schema: {
        ...bridgeDocs('Jobs the connector (machine name or connector id) has handled, newest first'),
        params: z.object({ machine: z.string().min(1).max(200) }),
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) }),
        response: { 200: ConnectorJobsOut },
      },
    },
    async (request) => {
      const { connector, jobs } = await bridge.transactions.connectorJobs(bridgeKeyOf(request).applicationId, request.params.machine, request.query.limit);
      return {
        success: true as const,
        connector: { id: connector.id, machine_name: connector.machine_name, online: connector.online, books_running: connector.books_running, last_seen_at: connector.last_seen_at },
        count: jobs.length,
        jobs,
      };
    },
  );
};
