// Pulled vouchers: the list (results under `invoices`), one voucher (`invoice`), acknowledgement,
// and the statistics of one company (never aggregated across companies).
import {
  PulledVoucherAckIn,
  PulledVoucherAckOut,
  PulledVoucherDetailOut,
  PulledVoucherListOut,
  PulledVoucherListQuery,
  SyncStatisticsOut,
  SyncStatisticsQuery,
} from '@ledgerwire/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bridgeKeyOf } from './bridge-auth.js';
import { requestedCompanyId } from '../services/companies/company-scope.js';
import { bridgeDocs, COMPANY_REQUIRED, scopedCompany } from './route-support.js';

export const pulledVoucherRoutes: FastifyPluginAsyncZod = async (app) => {
  const bridge = app.bridge;

  app.get(
    '/pulled-vouchers',
    { config: COMPANY_REQUIRED, schema: { ...bridgeDocs('Vouchers pulled from the books; results under `invoices` for every kind', { companyScoped: true }), querystring: PulledVoucherListQuery, response: { 200: PulledVoucherListOut } } },
    async (request) => {
      const company = await scopedCompany(app, request);
      const page = await bridge.pulledVouchers.list(company.id, request.query);
      return { success: true as const, company_id: company.id, total: page.total, count: page.invoices.length, limit: request.query.limit, offset: request.query.offset, invoices: page.invoices };
    },
  );

  app.get(
    '/pulled-vouchers/statistics',
    { config: COMPANY_REQUIRED, schema: { ...bridgeDocs('Pulled-data counts and report entries of one company', { companyScoped: true }), querystring: SyncStatisticsQuery, response: { 200: SyncStatisticsOut } } },
    async (request) => {
      const company = await scopedCompany(app, request);
      const { start_date, end_date } = request.query;
      return bridge.statistics.statistics(bridgeKeyOf(request).capabilities, company, { ...(start_date ? { start_date } : {}), ...(end_date ? { end_date } : {}) });
    },
  );

  app.post(
    '/pulled-vouchers/ack',
    { schema: { ...bridgeDocs('Acknowledge pulled vouchers: they leave the pending queue; repeating is harmless'), body: PulledVoucherAckIn, response: { 200: PulledVoucherAckOut } } },
    async (request) => {
      const company = await bridge.companyScope.resolve(bridgeKeyOf(request), String(request.body.company_id));
      return bridge.pulledVouchers.acknowledge(company.id, request.body.transaction_ids);
    },
  );

  app.get(
    '/pulled-vouchers/:transaction_id',
    {
      schema: {
        ...bridgeDocs('One pulled voucher by its transaction_id; the result is under `invoice`'),
        params: z.object({ transaction_id: z.string().min(1).max(100) }),
        querystring: z.object({ company_id: z.string().optional() }),
        response: { 200: PulledVoucherDetailOut },
      },
    },
    async (request) => {
      const key = bridgeKeyOf(request);
      let companyIds: number[];
      if (requestedCompanyId(request.query, request.headers) !== undefined) companyIds = [(await scopedCompany(app, request)).id];
      else {
        const companies = await bridge.companyRepository.list({ applicationId: key.applicationId });
        companyIds = companies.filter((company) => company.customer_id !== null).map((company) => company.id);
      }
      return { success: true as const, invoice: await bridge.pulledVouchers.get(companyIds, request.params.transaction_id) };
    },
  );
};
