// The console's accounting-bridge queries, under /admin/v1/console behind the operator token: companies
// with names, presence, queue counts and why the queue waits; transactions searched by voucher
// number, party, amount and date. Reads only.
import {
  ConsoleCompanyOverviewEnvelopeOut,
  ConsoleCompanySearchOut,
  ConsoleCompanySearchQuery,
  ConsoleTransactionSearchOut,
  ConsoleTransactionSearchQuery,
  ConsoleTransactionSummaryEnvelopeOut,
} from '@ledgerwire/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireOperator } from '../../operator/admin/operator-auth.js';
import { ConsoleCompanyOverview } from '../services/console-company-overview.js';
import { ConsoleTransactionSearch } from '../services/console-transaction-search.js';

const docs = (summary: string) => ({ tags: ['console'], summary, security: [{ operatorToken: [] }] });
const CompanyParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const consoleBridgeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireOperator(app.operators.token));
  const { db, capabilities } = app.database;
  const companies = new ConsoleCompanyOverview(db);
  const transactions = new ConsoleTransactionSearch(db, capabilities);

  app.get(
    '/companies',
    {
      schema: {
        ...docs('Companies by name with their customer, connector, books company, queue counts and why the queue waits'),
        querystring: ConsoleCompanySearchQuery,
        response: { 200: ConsoleCompanySearchOut },
      },
    },
    async (request) => ({ success: true as const, ...(await companies.search(request.query)) }),
  );

  app.get(
    '/companies/:id',
    { schema: { ...docs('One company as the companies list shows it'), params: CompanyParams, response: { 200: ConsoleCompanyOverviewEnvelopeOut } } },
    async (request) => ({ success: true as const, company: await companies.one(request.params.id) }),
  );

  app.get(
    '/transactions',
    {
      schema: {
        ...docs('Transactions searched by voucher number, party, amount and date, newest first, with names and why a waiting one waits'),
        querystring: ConsoleTransactionSearchQuery,
        response: { 200: ConsoleTransactionSearchOut },
      },
    },
    async (request) => ({ success: true as const, ...(await transactions.search(request.query)) }),
  );

  app.get(
    '/transactions/:job_id',
    {
      schema: {
        ...docs('One transaction as the list shows it: the books company it went to, whether its XML was sent, why it waits'),
        params: z.object({ job_id: z.string().min(1).max(100) }),
        response: { 200: ConsoleTransactionSummaryEnvelopeOut },
      },
    },
    async (request) => ({ success: true as const, transaction: await transactions.one(request.params.job_id) }),
  );
};
