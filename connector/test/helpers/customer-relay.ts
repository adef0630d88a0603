// A relay for connector tests, started by the test kit and listening on 127.0.0.1, provisioned through
// its own APIs: an application with a key, a customer (whose token enrols connectors) and companies
// attached to that customer with pulls and reports on.
import { call, startRelay, TEST_OPERATOR_TOKEN, type DatabaseKind, type TestRelay } from '@ledgerwire/test-kit';

export type CustomerRelay = TestRelay &
  Readonly<{
    customerToken: string;
    customerId: string;
    companyIds: number[];
    /** Calls the bridge API with the application's key; fails unless the status is `expected`; answers the body. */
    api<T = any>(method: string, route: string, body?: unknown, expected?: number): Promise<T>;
  }>;

export async function startCustomerRelay(options: { companies?: number; env?: Record<string, string>; database?: DatabaseKind } = {}): Promise<CustomerRelay> {
  const relay = await startRelay({ database: options.database ?? 'sqlite', listen: true, ...(options.env ? { env: options.env } : {}) });
  const send = async (method: string, url: string, token: string, body: unknown, expected: number): Promise<any> =>
    (await call(relay.app, method as 'GET', url, expected, { token, ...(body === undefined ? {} : { payload: body as Record<string, unknown> }) })).body;
  const application = await send('POST', '/admin/v1/applications', TEST_OPERATOR_TOKEN, { name: 'Connector tests' }, 201);
  const key = await send('POST', `/admin/v1/applications/${application.application.id}/keys`, TEST_OPERATOR_TOKEN, {
    environment: 'test',
    capabilities: ['pull.master', 'report.stock', 'report.gst'],
  }, 201);
  const credential: string = key.credential;
  const customer = await send('POST', '/api/v1/customers', credential, { name: 'Acme Traders' }, 200);
  const companyIds: number[] = [];
  for (let i = 0; i < (options.companies ?? 1); i += 1) {
    const company = await send('POST', '/api/v1/companies', credential, { name: `Acme books ${i + 1}` }, 200);
    await send('POST', `/api/v1/companies/${company.company_id}/customer`, credential, { customer_id: customer.customer.id }, 200);
    await send('PATCH', `/admin/v1/companies/${company.company_id}`, TEST_OPERATOR_TOKEN, { pull_masters: true, reports: { stock: true, gst: true } }, 200);
    companyIds.push(company.company_id);
  }
  return {
    get app() {
      return relay.app;
    },
    config: relay.config,
    testDatabase: relay.testDatabase,
    baseUrl: relay.baseUrl,
    stop: () => relay.stop(),
    start: () => relay.start(),
    close: () => relay.close(),
    customerToken: customer.customer.token,
    customerId: customer.customer.id,
    companyIds,
    api: (method, route, body, expected = 200) => send(method, route, credential, body, expected),
  };
}
