// Cancel and delete of a voucher in the books — QuickBooks Web Connector integrators' void and delete.
// POST with a verb segment, like every other write of the contract (and /customers/{token}/rotate,
// /companies/{id}/disconnect): each answers at once with the acceptance and becomes a job of the
// company; the outcome is read from /api/v1/transactions/{job}. Not HTTP DELETE: the voucher is not
// gone when the call answers, and the optional body (transaction_id) is what makes a retry safe. The
// body may be left out altogether.
import { AcceptanceOut, VoucherCancelIn, VoucherDeleteIn, VoucherLifecycleParams } from '@ledgerwire/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bridgeDocs, COMPANY_REQUIRED, scopedCompany } from './route-support.js';

const CompanyQuery = z.object({ company_id: z.string().optional() });

const LIFECYCLE_NOTE =
  ' `{voucher}` is the voucher’s books_voucher_guid, or the transaction_id of the write that booked it. ' +
  'Asynchronous: the answer is the acceptance; read the outcome from /api/v1/transactions/{job}. A voucher the books no longer have fails with VOUCHER_NOT_FOUND.';

export const voucherLifecycleRoutes: FastifyPluginAsyncZod = async (app) => {
  const bridge = app.bridge;

  app.post(
    '/vouchers/:voucher/cancel',
    {
      config: COMPANY_REQUIRED,
      schema: {
        ...withNote(bridgeDocs('Cancel (void) a voucher in the books: kept, marked cancelled, its entries removed', { companyScoped: true })),
        params: VoucherLifecycleParams,
        querystring: CompanyQuery,
        body: VoucherCancelIn.nullish(),
        response: { 200: AcceptanceOut },
      },
    },
    async (request, reply) => {
      const company = await scopedCompany(app, request);
      const { acceptance, replayed } = await bridge.voucherLifecycle.submit(company, 'cancel', request.params.voucher, request.body ?? {});
      if (replayed) reply.header('Idempotent-Replayed', 'true');
      return acceptance;
    },
  );

  app.post(
    '/vouchers/:voucher/delete',
    {
      config: COMPANY_REQUIRED,
      schema: {
        ...withNote(bridgeDocs('Delete a voucher from the books', { companyScoped: true })),
        params: VoucherLifecycleParams,
        querystring: CompanyQuery,
        body: VoucherDeleteIn.nullish(),
        response: { 200: AcceptanceOut },
      },
    },
    async (request, reply) => {
      const company = await scopedCompany(app, request);
      const { acceptance, replayed } = await bridge.voucherLifecycle.submit(company, 'delete', request.params.voucher, request.body ?? {});
      if (replayed) reply.header('Idempotent-Replayed', 'true');
      return acceptance;
    },
  );
};

function withNote<T extends { description?: string }>(docs: T): T {
  return { ...docs, description: `${docs.description ?? ''}${LIFECYCLE_NOTE}`.trim() };
}
