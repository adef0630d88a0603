// What the bridge's browser suites start from: an application with a test key, a customer, a company
// of that customer, and a protocol-level connector enrolled with the customer's token and paired to
// the company's books. Each suite names its own shop and decides how the books answer.
import { call, TEST_OPERATOR_TOKEN } from '@ledgerwire/test-kit';
import type { ConsoleRelay } from './console-relay.js';
import { ProtocolConnector } from './protocol-connector.js';

export type PairedCompany = Readonly<{
  /** The application's API key, for calls to /api/v1. */
  credential: string;
  companyId: number;
  connector: ProtocolConnector;
}>;

export async function startPairedCompany(
  relay: ConsoleRelay,
  shop: Readonly<{
    /** The shop's name: "<shop> Billing" is the application, "<shop> Traders" the customer. */
    name: string;
    machineName: string;
    books: Readonly<{ guid: string; name: string }>;
    decide: Parameters<typeof ProtocolConnector.start>[0]['decide'];
  }>,
): Promise<PairedCompany> {
  const operator = { token: TEST_OPERATOR_TOKEN };
  const application = (await call<{ application: { id: string } }>(relay, 'POST', '/admin/v1/applications', 201, { ...operator, payload: { name: `${shop.name} Billing` } })).body.application;
  const { credential } = (
    await call<{ credential: string }>(relay, 'POST', `/admin/v1/applications/${application.id}/keys`, 201, { ...operator, payload: { environment: 'test', capabilities: [] } })
  ).body;
  const integrator = { token: credential };
  const { customer } = (await call<{ customer: { id: string; token: string } }>(relay, 'POST', '/api/v1/customers', 200, { ...integrator, payload: { name: `${shop.name} Traders` } })).body;
  const { company_id: companyId } = (
    await call<{ company_id: number }>(relay, 'POST', '/api/v1/companies', 200, { ...integrator, payload: { name: `${shop.name} Traders FY27`, customer_id: customer.id } })
  ).body;
  const connector = await ProtocolConnector.start({
    baseUrl: relay.baseUrl,
    customerToken: customer.token,
    machineName: shop.machineName,
    books: { running: true, product: 'TallyPrime 5.1', open_companies: [shop.books] },
    decide: shop.decide,
  });
  await call(relay, 'POST', `/admin/v1/companies/${companyId}/pair`, 200, { ...operator, payload: { connector_id: connector.connectorId, books_company_guid: shop.books.guid } });
  return { credential, companyId, connector };
}
