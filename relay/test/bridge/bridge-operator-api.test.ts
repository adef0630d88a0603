// The operator API of the bridge: applications, keys (credential shown once, SHA-256 stored),
// revocation, company settings and pairing, connectors, and the support views of transactions.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeOnDatabases, type TestRelay } from '@ledgerwire/test-kit';
import { admin, api, createKey, insertConnector, provisionTenant, sampleInvoice, startBridgeRelay, type Tenant } from './bridge-test-kit.js';

describeOnDatabases('bridge operator API', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;

  beforeAll(async () => {
    relay = await startBridgeRelay(kind);
    tenant = await provisionTenant(relay, { capabilities: ['pull.master'] });
  });
  afterAll(() => relay.close());

  it('requires the operator token', async () => {
    await call(relay.app, 'POST', '/admin/v1/applications', 401, { payload: { name: 'x' } });
    await call(relay.app, 'GET', '/admin/v1/companies', 401, { token: tenant.credential });
  });

  it('creates applications and lists them', async () => {
    const { body } = await admin(relay, 'POST', '/admin/v1/applications', 201, { name: 'Ledger Co' });
    expect(body).toEqual({ success: true, application: { id: expect.stringMatching(/^app_/), name: 'Ledger Co', created_at: expect.any(String) } });
    const { body: list } = await admin(relay, 'GET', '/admin/v1/applications', 200);
    expect(list.applications.map((a: any) => a.id)).toContain(body.application.id);
    await admin(relay, 'POST', '/admin/v1/applications', 400, { name: '' });
  });

  it('issues a key whose credential is key_id:secret, shown once and stored as SHA-256', async () => {
    const { body } = await admin(relay, 'POST', `/admin/v1/applications/${tenant.applicationId}/keys`, 201, {
      environment: 'live',
      capabilities: ['report.gst', 'pull.master'],
    });
    expect(body).toMatchObject({ success: true, environment: 'live', capabilities: ['report.gst', 'pull.master'], revoked_at: null, application_id: tenant.applicationId });
    expect(body.credential).toBe(`${body.key_id}:${body.secret}`);
    const row = await relay.app.database.db.selectFrom('bridge_api_keys').selectAll().where('key_id', '=', body.key_id).executeTakeFirstOrThrow();
    expect(row.secret_hash).toBe(createHash('sha256').update(body.secret).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(body.secret);
    const { body: keys } = await admin(relay, 'GET', `/admin/v1/applications/${tenant.applicationId}/keys`, 200);
    expect(JSON.stringify(keys)).not.toContain(body.secret);
    expect(keys.keys.map((k: any) => k.key_id)).toContain(body.key_id);
    await admin(relay, 'POST', `/admin/v1/applications/${tenant.applicationId}/keys`, 400, { environment: 'staging', capabilities: [] });
    await admin(relay, 'POST', `/admin/v1/applications/${tenant.applicationId}/keys`, 400, { environment: 'test', capabilities: ['push.everything'] });
    await admin(relay, 'POST', '/admin/v1/applications/app_missing/keys', 404, { environment: 'test', capabilities: [] });
  });

  it('revokes a key (idempotently) and 404s an unknown one', async () => {
    const key = await createKey(relay, tenant.applicationId);
    const { body: first } = await admin(relay, 'DELETE', `/admin/v1/keys/${key.key_id}`, 200);
    expect(first.key.revoked_at).toEqual(expect.any(String));
    const { body: again } = await admin(relay, 'DELETE', `/admin/v1/keys/${key.key_id}`, 200);
    expect(again.key.revoked_at).toBe(first.key.revoked_at);
    await api(relay, key.credential, 'GET', '/api/v1/ping', 401);
    await admin(relay, 'DELETE', '/admin/v1/keys/lwk_test_nope', 404);
  });

  it('switches company settings: masters pull and reports', async () => {
    const { body } = await admin(relay, 'PATCH', `/admin/v1/companies/${tenant.companyId}`, 200, { pull_masters: true, reports: { stock: true } });
    expect(body.company).toMatchObject({ company_id: tenant.companyId, pull_masters: true, reports: { stock: true, gst: false } });
    const { body: later } = await admin(relay, 'PATCH', `/admin/v1/companies/${tenant.companyId}`, 200, { reports: { gst: true } });
    expect(later.company).toMatchObject({ pull_masters: true, reports: { stock: true, gst: true } });
    await admin(relay, 'PATCH', `/admin/v1/companies/${tenant.companyId}`, 400, { pull_masters: 'yes' });
    await admin(relay, 'PATCH', '/admin/v1/companies/999999', 404, { pull_masters: true });
  });

  it('pairs a company with a connector of its application and lists connectors', async () => {
    const connectorId = await insertConnector(relay, tenant, { openCompanies: [{ guid: 'books-guid-9', name: 'Sharma (Books)' }] });
    const { body } = await admin(relay, 'POST', `/admin/v1/companies/${tenant.companyId}/pair`, 200, { connector_id: connectorId, books_company_guid: 'books-guid-9' });
    expect(body.company).toMatchObject({ paired: true, connector_id: connectorId, books_company_guid: 'books-guid-9', books_company_name: 'Sharma (Books)' });
    await admin(relay, 'POST', `/admin/v1/companies/${tenant.companyId}/pair`, 404, { connector_id: 'con_missing', books_company_guid: 'x' });
    const stranger = await provisionTenant(relay, { name: 'Stranger' });
    const foreign = await insertConnector(relay, stranger);
    await admin(relay, 'POST', `/admin/v1/companies/${tenant.companyId}/pair`, 422, { connector_id: foreign, books_company_guid: 'x' });
    // Longer than any books GUID: refused in words (PostgreSQL would have refused the row: a 500).
    const { body: tooLong } = await admin(relay, 'POST', `/admin/v1/companies/${tenant.companyId}/pair`, 400, { connector_id: connectorId, books_company_guid: 'g'.repeat(201) });
    expect(tooLong.error.details).toEqual([expect.objectContaining({ field: 'books_company_guid' })]);

    const { body: all } = await admin(relay, 'GET', '/admin/v1/connectors', 200);
    expect(all.connectors.map((c: any) => c.id)).toEqual(expect.arrayContaining([connectorId, foreign]));
    const { body: mine } = await admin(relay, 'GET', `/admin/v1/connectors?application_id=${tenant.applicationId}`, 200);
    expect(mine.connectors.map((c: any) => c.id)).toEqual([connectorId]);
    expect(mine.connectors[0]).toMatchObject({ machine_name: expect.stringMatching(/^PC-/), online: true, books_running: true, open_companies: [{ guid: 'books-guid-9', name: 'Sharma (Books)' }] });
  });

  it('lists customers, companies and transactions with filters, and shows a transaction with its XML', async () => {
    const { body: customers } = await admin(relay, 'GET', `/admin/v1/customers?application_id=${tenant.applicationId}`, 200);
    expect(customers.customers).toEqual([expect.objectContaining({ id: tenant.customerId, application_id: tenant.applicationId, name: 'Sharma Traders' })]);
    expect(JSON.stringify(customers)).not.toContain(tenant.customerToken);
    const { body: companies } = await admin(relay, 'GET', `/admin/v1/companies?customer_id=${tenant.customerId}`, 200);
    expect(companies.companies.map((c: any) => c.company_id)).toEqual([tenant.companyId]);

    const { body: accepted } = await api(relay, tenant.credential, 'POST', `/api/v1/invoices?company_id=${tenant.companyId}`, 200, { payload: sampleInvoice });
    const { body: list } = await admin(relay, 'GET', `/admin/v1/transactions?application_id=${tenant.applicationId}&status=queued`, 200);
    expect(list.transactions.map((t: any) => t.job_id)).toContain(accepted.transaction_id);
    const { body: none } = await admin(relay, 'GET', `/admin/v1/transactions?application_id=${tenant.applicationId}&status=failed`, 200);
    expect(none).toEqual({ success: true, total: 0, transactions: [] });

    const { body: detail } = await admin(relay, 'GET', `/admin/v1/transactions/${accepted.transaction_id}`, 200);
    expect(detail.transaction).toMatchObject({ job_id: accepted.transaction_id, application_id: tenant.applicationId, status: 'queued' });
    expect(detail.transaction.xml).toContain('<ENVELOPE>');
    expect(detail.transaction.xml).toContain('INV-001');
    expect(detail.transaction.xml).toContain('Sharma (Books)');
    expect(detail.transaction.document).toMatchObject({ voucher_number: 'INV-001' });
    await admin(relay, 'GET', '/admin/v1/transactions/00000000-0000-4000-8000-000000000000', 404);
  });
});
