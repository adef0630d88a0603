// Masters: creation jobs per type (POST, list, status), pulled masters (the list envelope) and the
// stock-group tree.
import {
  AcceptanceOut,
  MASTER_TYPES,
  MasterJobListOut,
  MasterJobListQuery,
  MasterType,
  MasterWriteExtrasIn,
  PulledMasterListOut,
  PulledMasterListQuery,
  StockTreeOut,
  StockTreeQuery,
  TransactionOut,
  masterWriteSchemaFor,
} from '@ledgerwire/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bridgeKeyOf } from './bridge-auth.js';
import { requestedCompanyId } from '../services/companies/company-scope.js';
import { bridgeDocs, COMPANY_REQUIRED, scopedCompany } from './route-support.js';

export const masterRoutes: FastifyPluginAsyncZod = async (app) => {
  const bridge = app.bridge;

  for (const type of MASTER_TYPES) {
    app.post(
      `/masters/${type}`,
      {
        config: COMPANY_REQUIRED,
        schema: {
          ...bridgeDocs(`Create a ${type.replace('_', ' ')} master (asynchronous: answers with the acceptance)`, { companyScoped: true }),
          querystring: z.object({ company_id: z.string().optional() }),
          body: z.intersection(masterWriteSchemaFor(type), MasterWriteExtrasIn),
          response: { 200: AcceptanceOut },
        },
      },
      async (request, reply) => {
        const company = await scopedCompany(app, request);
        const { transaction_id: own, ...body } = request.body as typeof request.body & { transaction_id?: string };
        const { acceptance, replayed } = await bridge.masters.submit(company, type, body as Parameters<typeof bridge.masters.submit>[2], own);
        if (replayed) reply.header('Idempotent-Replayed', 'true');
        return acceptance;
      },
    );
  }

  app.get(
    '/masters/:type',
    { config: COMPANY_REQUIRED, schema: { ...bridgeDocs('Master creation jobs of a type', { companyScoped: true }), params: z.object({ type: MasterType }), querystring: MasterJobListQuery, response: { 200: MasterJobListOut } } },
    async (request) => {
      const company = await scopedCompany(app, request);
      const { status, limit, offset } = request.query;
      const page = await bridge.transactions.list(company.id, { job_type: 'master', master_type: request.params.type, ...(status ? { status } : {}), limit, offset });
      return { success: true as const, master_type: request.params.type, company_id: company.id, total: page.total, count: page.transactions.length, transactions: page.transactions };
    },
  );

  app.get(
    '/masters/:type/:job',
    {
      schema: {
        ...bridgeDocs('Status of one master creation job (job_id or your own transaction_id)'),
        params: z.object({ type: MasterType, job: z.string().min(1).max(200) }),
        querystring: z.object({ company_id: z.string().optional() }),
        response: { 200: TransactionOut },
      },
    },
    async (request) => {
      const key = bridgeKeyOf(request);
      const company = requestedCompanyId(request.query, request.headers) === undefined ? undefined : await scopedCompany(app, request);
      const transaction = await bridge.transactions.get(key.applicationId, request.params.job, { companyId: company?.id, masterType: request.params.type });
      return { success: true as const, transaction };
    },
  );

  app.get(
    '/pulled-masters/:type',
    {
      config: COMPANY_REQUIRED,
      schema: {
        ...bridgeDocs('Masters read out of the company (needs pull.master and the company’s masters pull; else an empty list)', { companyScoped: true }),
        params: z.object({ type: MasterType }),
        querystring: PulledMasterListQuery,
        response: { 200: PulledMasterListOut },
      },
    },
    async (request) => {
      const company = await scopedCompany(app, request);
      const { limit, offset } = request.query;
      return bridge.pulledMasters.list(bridgeKeyOf(request).capabilities, company, request.params.type, { limit, offset });
    },
  );

  app.get(
    '/stock-tree',
    { config: COMPANY_REQUIRED, schema: { ...bridgeDocs('Stock groups as a tree, with their stock items', { companyScoped: true }), querystring: StockTreeQuery, response: { 200: StockTreeOut } } },
    async (request) => bridge.pulledMasters.stockTree(bridgeKeyOf(request).capabilities, await scopedCompany(app, request)),
  );
};
