// Customers (create, list, token rotation) and companies (create, list, attach, detach, disconnect,
// health) through /api/v1, as the contract's client sees them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnDatabases, type TestRelay } from '@ledgerwire/test-kit';
import { admin, api, insertConnector, pairWithConnector, provisionTenant, startBridgeRelay, type Tenant } from './bridge-test-kit.js';

describeOnDatabases('bridge customers and companies', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;

  beforeAll(async () => {
    relay = await startBridgeRelay(kind);
    tenant = await provisionTenant(relay);
  });
  afterAll(() => relay.close());

  it('creates a customer with a token shown once, lists customers without tokens', async () => {
    const { body } = await api(relay, tenant.credential, 'POST', '/api/v1/customers', 200, { payload: { name: 'Verma & Sons' } });
    expect(body).toEqual({
      success: true,
      customer: { id: expect.stringMatching(/^cus_/), name: 'Verma & Sons', external_id: null, token: expect.stringMatching(/^lwct_/), created_at: expect.any(String) },
    });
    const { body: list } = await api(relay, tenant.credential, 'GET', '/api/v1/customers', 200);
    expect(list.customers.map((c: any) => c.name)).toEqual(['Sharma Traders', 'Verma & Sons']);
    expect(list.customers[0]).toEqual({ id: tenant.customerId, name: 'Sharma Traders', external_id: 'ext-1', created_at: expect.any(String) });
    expect(JSON.stringify(list)).not.toContain('lwct_');
    await api(relay, tenant.credential, 'POST', '/api/v1/customers', 400, { payload: { name: '' } });
    await api(relay, tenant.credential, 'POST', '/api/v1/customers', 400, { payload: {} });
  });

  it('rotates the customer token: the old one no longer enrols, and rotates no more', async () => {
    const { body: customer } = await api(relay, tenant.credential, 'POST', '/api/v1/customers', 200, { payload: { name: 'Rotate Me' } });
    const oldToken = customer.customer.token;
    const { body } = await api(relay, tenant.credential, 'POST', `/api/v1/customers/${oldToken}/rotate`, 200);
    expect(body.customer).toMatchObject({ id: customer.customer.id, name: 'Rotate Me', token: expect.stringMatching(/^lwct_/) });
    expect(body.customer.token).not.toBe(oldToken);
    const lookup = relay.app.bridge.customers;
    expect(await lookup.findByToken(oldToken)).toBeUndefined();
    expect(await lookup.findByToken(body.customer.token)).toMatchObject({ id: customer.customer.id, application_id: tenant.applicationId });
    await api(relay, tenant.credential, 'POST', `/api/v1/customers/${oldToken}/rotate`, 404);
    // Another application cannot rotate this customer's token.
    const stranger = await provisionTenant(relay, { name: 'Stranger' });
    await api(relay, stranger.credential, 'POST', `/api/v1/customers/${body.customer.token}/rotate`, 404);
  });

  it('creates and lists companies; company_id is an integer', async () => {
    const { body } = await api(relay, tenant.credential, 'POST', '/api/v1/companies', 200, { payload: { name: 'Sharma Exports' } });
    expect(body).toMatchObject({ success: true, company_id: expect.any(Number), company: { name: 'Sharma Exports', customer_id: null, paired: false, pull_masters: false } });
    expect(body.company.company_id).toBe(body.company_id);
    const { body: list } = await api(relay, tenant.credential, 'GET', '/api/v1/companies', 200);
    expect(list.companies.map((c: any) => c.company_id)).toEqual([tenant.companyId, body.company_id]);
    const { body: filtered } = await api(relay, tenant.credential, 'GET', `/api/v1/companies?customer_id=${tenant.customerId}`, 200);
    expect(filtered.companies.map((c: any) => c.company_id)).toEqual([tenant.companyId]);
    await api(relay, tenant.credential, 'POST', '/api/v1/companies', 404, { payload: { name: 'X', customer_id: 'cus_missing' } });
  });

  it('attaches, refuses a second customer, detaches (idempotently)', async () => {
    const { body: created } = await api(relay, tenant.credential, 'POST', '/api/v1/companies', 200, { payload: { name: 'Link Test' } });
    const id = created.company_id;
    const { body: attached } = await api(relay, tenant.credential, 'POST', `/api/v1/companies/${id}/customer`, 200, { payload: { customer_id: tenant.customerId } });
    expect(attached.company.customer_id).toBe(tenant.customerId);
    await api(relay, tenant.credential, 'POST', `/api/v1/companies/${id}/customer`, 200, { payload: { customer_id: tenant.customerId } });
    const { body: second } = await api(relay, tenant.credential, 'POST', '/api/v1/customers', 200, { payload: { name: 'Second' } });
    await api(relay, tenant.credential, 'POST', `/api/v1/companies/${id}/customer`, 409, { payload: { customer_id: second.customer.id } });
    await api(relay, tenant.credential, 'POST', `/api/v1/companies/${id}/customer`, 404, { payload: { customer_id: 'cus_nobody' } });
    const { body: detached } = await api(relay, tenant.credential, 'DELETE', `/api/v1/companies/${id}/customer`, 200);
    expect(detached.company.customer_id).toBeNull();
    await api(relay, tenant.credential, 'DELETE', `/api/v1/companies/${id}/customer`, 200);
    await api(relay, tenant.credential, 'POST', '/api/v1/companies/abc/customer', 400, { payload: { customer_id: tenant.customerId } });
  });

  it('health says separately: connector online, books running, this company open', async () => {
    const { body: unpaired } = await api(relay, tenant.credential, 'GET', `/api/v1/companies/${tenant.companyId}/health`, 200);
    expect(unpaired).toEqual({
      success: true,
      company_id: tenant.companyId,
      paired: false,
      connector: { id: null, online: false, machine: null, version: null, last_seen_at: null },
      books: { running: false, company_open: false, last_checked_at: null },
      attention: 'company_disconnected',
      user_message: expect.stringContaining('install the Ledgerwire connector on the PC where TallyPrime runs'),
      fix_by: 'end_user',
    });

    const connectorId = await pairWithConnector(relay, tenant, 'guid-open');
    const { body: healthy } = await api(relay, tenant.credential, 'GET', `/api/v1/companies/${tenant.companyId}/health`, 200);
    expect(healthy).toMatchObject({
      paired: true,
      connector: { id: connectorId, online: true, machine: expect.stringMatching(/^PC-/), version: '0.1.0', last_seen_at: expect.any(String) },
      books: { running: true, company_open: true },
      attention: null,
      user_message: null,
      fix_by: null,
    });
    const machine = healthy.connector.machine as string;

    const db = relay.app.database.db;
    await db.updateTable('connectors').set({ open_companies: JSON.stringify([{ guid: 'other', name: 'Other' }]) }).where('id', '=', connectorId).execute();
    const { body: closed } = await api(relay, tenant.credential, 'GET', `/api/v1/companies/${tenant.companyId}/health`, 200);
    expect(closed).toMatchObject({ connector: { online: true }, books: { running: true, company_open: false }, attention: 'company_not_open', fix_by: 'end_user' });
    expect(closed.user_message).toBe(`TallyPrime is running on the PC "${machine}" but the company "Sharma Traders (Books)" is not open in it: open that company in TallyPrime (Select Company) and keep it open.`);

    await db.updateTable('connectors').set({ books_running: 0 }).where('id', '=', connectorId).execute();
    const { body: stopped } = await api(relay, tenant.credential, 'GET', `/api/v1/companies/${tenant.companyId}/health`, 200);
    expect(stopped).toMatchObject({ connector: { online: true }, books: { running: false, company_open: false }, attention: 'books_not_running', fix_by: 'end_user' });
    expect(stopped.user_message).toContain(`TallyPrime is not answering on the PC "${machine}"`);

    await db.updateTable('connectors').set({ online: 0 }).where('id', '=', connectorId).execute();
    const { body: offline } = await api(relay, tenant.credential, 'GET', `/api/v1/companies/${tenant.companyId}/health`, 200);
    expect(offline).toMatchObject({ connector: { online: false }, books: { running: false }, attention: 'connector_offline', fix_by: 'end_user' });
    expect(offline.user_message).toContain(`The Ledgerwire connector on the PC "${machine}" is not connected`);
  });

  it('disconnect severs the pairing and keeps the company and its history', async () => {
    const { body: created } = await api(relay, tenant.credential, 'POST', '/api/v1/companies', 200, { payload: { name: 'Disconnect Me', customer_id: tenant.customerId } });
    const id = created.company_id;
    const connectorId = await insertConnector(relay, tenant);
    await admin(relay, 'POST', `/admin/v1/companies/${id}/pair`, 200, { connector_id: connectorId, books_company_guid: 'g-dc' });
    expect(await relay.app.bridge.companyRepository.findPairedCompanies(connectorId)).toEqual([
      { company_id: id, books_company_guid: 'g-dc', books_company_name: 'Disconnect Me', application_id: tenant.applicationId },
    ]);
    const { body } = await api(relay, tenant.credential, 'POST', `/api/v1/companies/${id}/disconnect`, 200);
    expect(body.company).toMatchObject({ company_id: id, paired: false, connector_id: null, books_company_guid: null, customer_id: tenant.customerId });
    expect(await relay.app.bridge.companyRepository.findPairedCompanies(connectorId)).toEqual([]);
    const { body: health } = await api(relay, tenant.credential, 'GET', `/api/v1/companies/${id}/health`, 200);
    expect(health.paired).toBe(false);
  });

  it('connectors/{machine}/jobs: 404 for an unknown machine of this application', async () => {
    await api(relay, tenant.credential, 'GET', '/api/v1/connectors/NO-SUCH-PC/jobs', 404);
  });
});
