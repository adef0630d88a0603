// Sets up what a connector needs, through the relay's own HTTP APIs as an integrator and an operator
// would: an application with a key, a customer (its token enrols machines), companies attached to it;
// and small wrappers for the calls the gateway tests make (pair, write a voucher, read a transaction).
import type { FastifyInstance } from 'fastify';
import { call, TEST_OPERATOR_TOKEN } from '@ledgerwire/test-kit';

export type Tenant = Readonly<{
  applicationId: string;
  apiKey: string;
  customerId: string;
  customerToken: string;
  companyId: number;
}>;

export async function createTenant(app: FastifyInstance, name = 'Gateway tests'): Promise<Tenant> {
  const { body: created } = await call(app, 'POST', '/admin/v1/applications', 201, { token: TEST_OPERATOR_TOKEN, payload: { name } });
  const applicationId: string = created.application.id;
  const { body: key } = await call(app, 'POST', `/admin/v1/applications/${applicationId}/keys`, 201, {
    token: TEST_OPERATOR_TOKEN,
    payload: { environment: 'test', capabilities: [] },
  });
  const apiKey: string = key.credential;
  const { body: customer } = await call(app, 'POST', '/api/v1/customers', 200, { token: apiKey, payload: { name: 'Acme Traders' } });
  const companyId = await createAttachedCompany(app, apiKey, customer.customer.id, 'Acme Traders');
  return { applicationId, apiKey, customerId: customer.customer.id, customerToken: customer.customer.token, companyId };
}

export async function createAttachedCompany(app: FastifyInstance, apiKey: string, customerId: string, name: string): Promise<number> {
  const { body: company } = await call(app, 'POST', '/api/v1/companies', 200, { token: apiKey, payload: { name } });
  await call(app, 'POST', `/api/v1/companies/${company.company_id}/customer`, 200, { token: apiKey, payload: { customer_id: customerId } });
  return company.company_id;
}

/** Pairs the company to the connector from the connector's side (its credential). */
export async function pairFromConnector(app: FastifyInstance, credential: string, companyId: number, guid = 'books-guid-acme', name = 'Acme Traders') {
  return call(app, 'POST', '/api/v1/connectors/pairings', 200, {
    token: credential,
    payload: { company_id: companyId, books_company_guid: guid, books_company_name: name },
  });
}

/** A sales invoice through the bridge API; answers the job id. */
export async function writeInvoice(app: FastifyInstance, tenant: Tenant, number: string, companyId = tenant.companyId): Promise<string> {
  const { body } = await call(app, 'POST', `/api/v1/invoices?company_id=${companyId}`, 200, {
    token: tenant.apiKey,
    payload: {
      voucher_number: number,
      voucher_type: 'Sales',
      party_ledger: 'Customer A',
      date: '2026-04-01',
      ledger_entries: [
        { ledger_name: 'Customer A', amount: 118, is_debit: true, is_party: true },
        { ledger_name: 'Sales', amount: 118, is_debit: false },
      ],
    },
  });
  return body.transaction_id;
}

export async function readTransaction(app: FastifyInstance, tenant: Tenant, jobId: string, companyId = tenant.companyId) {
  const { body } = await call(app, 'GET', `/api/v1/transactions/${jobId}?company_id=${companyId}`, 200, { token: tenant.apiKey });
  return body.transaction as {
    job_id: string;
    status: string;
    retry_count: number;
    max_retries: number;
    books_voucher_guid: string | null;
    error_code: string | null;
    error_message: string | null;
  };
}
