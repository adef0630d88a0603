// The nine voucher writes (POST /api/v1/invoices, /orders, …): each answers at once with the
// acceptance; the outcome is read from the transaction.
import { AcceptanceOut, VOUCHER_WRITE_ENDPOINTS, VOUCHER_WRITE_PATHS, voucherWriteBodyFor } from '@ledgerwire/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bridgeDocs, COMPANY_REQUIRED, scopedCompany } from './route-support.js';

const CompanyQuery = z.object({ company_id: z.string().optional() });

export const voucherWriteRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const path of VOUCHER_WRITE_PATHS) {
    const endpoint = VOUCHER_WRITE_ENDPOINTS[path];
    app.post(
      `/${path}`,
      {
        config: COMPANY_REQUIRED,
        schema: {
          ...bridgeDocs(`Write a ${endpoint.label} (asynchronous: answers with the acceptance)`, { companyScoped: true }),
          querystring: CompanyQuery,
          body: voucherWriteBodyFor(path),
          response: { 200: AcceptanceOut },
        },
      },
      async (request, reply) => {
        const company = await scopedCompany(app, request);
        const { acceptance, replayed } = await app.bridge.vouchers.submit(company, path, request.body);
        if (replayed) reply.header('Idempotent-Replayed', 'true');
        return acceptance;
      },
    );
  }
};
