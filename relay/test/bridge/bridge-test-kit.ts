// Test kit for the bridge API suites: an in-process relay, provisioning through the operator API
// (application, key, customer, company) and calls that carry a bridge credential.
import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { call, type DatabaseKind, startRelay, TEST_OPERATOR_TOKEN, type TestRelay } from '@ledgerwire/test-kit';

export type Tenant = Readonly<{
  applicationId: string;
  credential: string;
  keyId: string;
  customerId: string;
  customerToken: string;
  companyId: number;
}>;

export function startBridgeRelay(kind: DatabaseKind, env: Record<string, string> = {}): Promise<TestRelay> {
  // Background loops off: suites drive the webhook loop and the lease reaper themselves.
  return startRelay({ database: kind, env: { RELAY_WORKERS: '0', WEBHOOK_ALLOW_PRIVATE_URLS: '1', ...env } });
}

export function admin<T = any>(relay: TestRelay, method: InjectOptions['method'], url: string, status: number, payload?: unknown) {
  return call<T>(relay.app, method, url, status, { token: TEST_OPERATOR_TOKEN, ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }) });
}

export function api<T = any>(
  relay: TestRelay,
  credential: string,
  method: InjectOptions['method'],
  url: string,
  status: number,
  options: { payload?: unknown; headers?: Record<string, string> } = {},
) {
  return call<T>(relay.app, method, url, status, {
    token: credential,
    ...(options.payload === undefined ? {} : { payload: options.payload as InjectOptions['payload'] }),
    ...(options.headers ? { headers: options.headers } : {}),
  });
}

export async function createKey(relay: TestRelay, applicationId: string, capabilities: string[] = [], environment = 'test') {
  const { body } = await admin(relay, 'POST', `/admin/v1/applications/${applicationId}/keys`, 201, { environment, capabilities });
  return body as { key_id: string; secret: string; credential: string };
}

/** An application with a key, a customer and a company attached to it. */
export async function provisionTenant(relay: TestRelay, options: { capabilities?: string[]; name?: string } = {}): Promise<Tenant> {
  const { body: app } = await admin(relay, 'POST', '/admin/v1/applications', 201, { name: options.name ?? 'Acme Billing' });
  const key = await createKey(relay, app.application.id, options.capabilities ?? []);
  const { body: customer } = await api(relay, key.credential, 'POST', '/api/v1/customers', 200, { payload: { name: 'Sharma Traders', external_id: 'ext-1' } });
  const { body: company } = await api(relay, key.credential, 'POST', '/api/v1/companies', 200, {
    payload: { name: 'Sharma Traders FY25', customer_id: customer.customer.id },
  });
  return {
    applicationId: app.application.id,
    credential: key.credential,
    keyId: key.key_id,
    customerId: customer.customer.id,
    customerToken: customer.customer.token,
    companyId: company.company_id,
  };
}

/** A connector row as the gateway's enrolment would leave it (the gateway's own suites cover enrolment). */
export async function insertConnector(
  relay: TestRelay,
  tenant: Pick<Tenant, 'applicationId' | 'customerId'>,
  state: { online?: boolean; booksRunning?: boolean; openCompanies?: { guid: string; name: string }[]; machine?: string } = {},
): Promise<string> {
  const id = `con_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
  const now = new Date().toISOString();
  await relay.app.database.db
    .insertInto('connectors')
    .values({
      id,
      customer_id: tenant.customerId,
      application_id: tenant.applicationId,
      machine_name: state.machine ?? `PC-${id.slice(4, 12)}`,
      credential_hash: 'f'.repeat(64),
      version: '0.1.0',
      online: state.online === false ? 0 : 1,
      connected: state.online === false ? 0 : 1,
      session_id: null,
      books_running: state.booksRunning === false ? 0 : 1,
      books_product: 'TallyPrime',
      open_companies: JSON.stringify(state.openCompanies ?? []),
      last_seen_at: now,
      disconnected_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

/** Pairs the tenant's company with a new connector through the operator API; returns the connector id. */
export async function pairWithConnector(relay: TestRelay, tenant: Tenant, booksGuid = 'guid-books-company-1', companyId = tenant.companyId) {
  const connectorId = await insertConnector(relay, tenant, { openCompanies: [{ guid: booksGuid, name: 'Sharma Traders (Books)' }] });
  await admin(relay, 'POST', `/admin/v1/companies/${companyId}/pair`, 200, { connector_id: connectorId, books_company_guid: booksGuid });
  return connectorId;
}

export const sampleInvoice = {
  voucher_number: 'INV-001',
  voucher_type: 'Sales',
  party_ledger: 'Acme Retail',
  date: '2025-04-01',
  ledger_entries: [
    { ledger_name: 'Acme Retail', amount: 1180, is_debit: true, is_party: true },
    { ledger_name: 'Sales', amount: 1000, is_debit: false, is_party: false },
    { ledger_name: 'Output IGST', amount: 180, is_debit: false, is_party: false },
  ],
};

export const sampleReceipt = {
  voucher_number: 'RCT-001',
  voucher_type: 'Receipt',
  party_ledger: 'Acme Retail',
  date: '2025-04-05',
  ledger_entries: [
    { ledger_name: 'Acme Retail', amount: 1180, is_debit: false, is_party: true, bill_allocations: [{ name: 'INV-001', bill_type: 'Agst Ref', amount: 1180 }] },
    { ledger_name: 'HDFC Bank', amount: 1180, is_debit: true, is_party: false },
  ],
};
