// The console's bridge queries and webhook actions (/admin/v1/console/…) on SQLite and PostgreSQL:
// companies by name with customer, connector and books company names, queue counts and why the
// queue waits; transactions searched by voucher number, party, amount and date with the books
// company and the queue position; support's webhook actions (test, disable, enable, delete) and the
// receiver's answer kept with each attempt.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { admin, api, insertConnector, provisionTenant, sampleInvoice, sampleReceipt, startBridgeRelay, type Tenant } from '../bridge/bridge-test-kit.js';
import { call, describeOnDatabases, type TestRelay } from '@ledgerwire/test-kit';

const BOOKS = { guid: 'guid-sharma-books', name: 'Sharma Traders (Books)' };

const secondInvoice = {
  voucher_number: 'INV-002',
  voucher_type: 'Sales',
  party_ledger: 'Bharat Stores',
  date: '2025-05-10',
  ledger_entries: [
    { ledger_name: 'Bharat Stores', amount: 250.5, is_debit: true, is_party: true },
    { ledger_name: 'Sales', amount: 250.5, is_debit: false, is_party: false },
  ],
};

describeOnDatabases('console bridge queries', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  let looseCompanyId: number;

  beforeEach(async () => {
    relay = await startBridgeRelay(kind);
    tenant = await provisionTenant(relay, { name: 'Sharma Billing' });
    // Attached to a customer (writes need one) but paired with no books company.
    const owner = (await api(relay, tenant.credential, 'POST', '/api/v1/customers', 200, { payload: { name: 'Loose Owners' } })).body.customer.id;
    looseCompanyId = (await api(relay, tenant.credential, 'POST', '/api/v1/companies', 200, { payload: { name: 'Loose Exports', customer_id: owner } })).body.company_id;
  });
  afterEach(async () => relay.close());

  const companies = (query = '') => admin(relay, 'GET', `/admin/v1/console/companies${query}`, 200).then((r) => r.body);
  const transactions = (query = '') => admin(relay, 'GET', `/admin/v1/console/transactions${query}`, 200).then((r) => r.body);
  const post = (companyId: number, path: string, voucher: object) =>
    api(relay, tenant.credential, 'POST', `/api/v1/${path}?company_id=${companyId}`, 200, { payload: voucher }).then((r) => r.body.transaction_id as string);

  it('lists companies with names, presence, queue counts and why the queue waits; finds them by name', async () => {
    // Paired with a connector that is online with the books running, but the company is not open in them.
    const connectorId = await insertConnector(relay, tenant, { machine: 'SHARMA-PC', openCompanies: [{ guid: 'other-guid', name: 'Other Co' }] });
    await admin(relay, 'POST', `/admin/v1/companies/${tenant.companyId}/pair`, 200, { connector_id: connectorId, books_company_guid: BOOKS.guid, books_company_name: BOOKS.name });
    await post(tenant.companyId, 'invoices', sampleInvoice);
    const failed = await post(tenant.companyId, 'receipts', sampleReceipt);
    await relay.app.database.db.updateTable('transactions').set({ status: 'failed', error_code: 'MASTER_NOT_FOUND' }).where('job_id', '=', failed).execute();
    await post(looseCompanyId, 'invoices', secondInvoice);

    const all = await companies();
    expect(all.total).toBe(2);
    // By name: Loose Exports before Sharma Traders FY25.
    expect(all.companies.map((c: { name: string }) => c.name)).toEqual(['Loose Exports', 'Sharma Traders FY25']);
    const [loose, sharma] = all.companies;
    expect(sharma).toMatchObject({
      company_id: tenant.companyId,
      application_name: 'Sharma Billing',
      customer_name: 'Sharma Traders',
      paired: true,
      connector_machine: 'SHARMA-PC',
      connector_online: true,
      connector_last_seen_at: expect.any(String),
      books_running: true,
      books_company_name: BOOKS.name,
      company_open: false,
      jobs_queued: 1,
      jobs_processing: 0,
      jobs_failed: 1,
      oldest_queued_at: expect.any(String),
      waiting_reason: { code: 'company_not_open', message: expect.stringContaining(BOOKS.name) },
    });
    expect(loose).toMatchObject({ customer_name: 'Loose Owners', paired: false, connector_machine: null, jobs_queued: 1, waiting_reason: { code: 'company_disconnected' } });

    // The connector goes offline: that is now why the queue waits.
    await relay.app.database.db.updateTable('connectors').set({ online: 0, connected: 0 }).where('id', '=', connectorId).execute();
    const offline = (await admin(relay, 'GET', `/admin/v1/console/companies/${tenant.companyId}`, 200)).body.company;
    expect(offline.waiting_reason).toMatchObject({ code: 'connector_offline', message: expect.stringContaining('SHARMA-PC') });

    // Found by its own name, its customer's or its books company's, in any case; wildcards are literal.
    expect((await companies('?q=traders%20fy')).companies.map((c: { name: string }) => c.name)).toEqual(['Sharma Traders FY25']);
    expect((await companies('?q=SHARMA%20TRADERS%20(BOOKS')).total).toBe(1);
    expect((await companies('?q=loose')).companies.map((c: { company_id: number }) => c.company_id)).toEqual([looseCompanyId]);
    expect((await companies('?q=%25')).total).toBe(0);
    expect((await companies(`?application_id=${tenant.applicationId}&limit=1&offset=1`))).toMatchObject({ total: 2, companies: [{ name: 'Sharma Traders FY25' }] });
    expect((await companies('?offset=5')).total).toBe(2);
    await admin(relay, 'GET', '/admin/v1/console/companies/999999', 404);
    await admin(relay, 'GET', '/admin/v1/console/companies?limit=0', 400);
  });

  it('searches transactions by voucher number, party, amount and date, with names, the books company and the queue position', async () => {
    const connectorId = await insertConnector(relay, tenant, { machine: 'SHARMA-PC', openCompanies: [BOOKS] });
    await admin(relay, 'POST', `/admin/v1/companies/${tenant.companyId}/pair`, 200, { connector_id: connectorId, books_company_guid: BOOKS.guid, books_company_name: BOOKS.name });
    const invoice = await post(tenant.companyId, 'invoices', sampleInvoice);
    const receipt = await post(tenant.companyId, 'receipts', sampleReceipt);
    const second = await post(tenant.companyId, 'invoices', secondInvoice);
    const loose = await post(looseCompanyId, 'invoices', { ...sampleInvoice, voucher_number: 'LX-9' });

    const all = await transactions();
    expect(all.total).toBe(4);
    expect(all.transactions.map((t: { job_id: string }) => t.job_id)).toEqual([loose, second, receipt, invoice]);
    const byId = new Map(all.transactions.map((t: { job_id: string }) => [t.job_id, t]));
    expect(byId.get(invoice)).toMatchObject({
      company_name: 'Sharma Traders FY25',
      voucher_type: 'Sales',
      voucher_number: 'INV-001',
      party: 'Acme Retail',
      amount: 1180,
      date: '2025-04-01',
      books_company_name: BOOKS.name,
      sent_to_books: false,
      connector_machine: null,
      status: 'queued',
      waiting_reason: null,
    });
    expect(byId.get(receipt)).toMatchObject({ waiting_reason: { code: 'behind_earlier_jobs', jobs_ahead: 1 } });
    expect(byId.get(second)).toMatchObject({ amount: 250.5, waiting_reason: { code: 'behind_earlier_jobs', jobs_ahead: 2 } });
    expect(byId.get(loose)).toMatchObject({ company_name: 'Loose Exports', waiting_reason: { code: 'company_disconnected' } });

    const ids = async (query: string) => (await transactions(query)).transactions.map((t: { job_id: string }) => t.job_id);
    expect(await ids('?voucher_number=inv-00')).toEqual([second, invoice]);
    expect(await ids('?party=BHARAT')).toEqual([second]);
    expect(await ids('?amount=1180')).toEqual([loose, receipt, invoice]);
    expect(await ids('?amount=250.50')).toEqual([second]);
    expect(await ids('?amount=250.5&party=acme')).toEqual([]);
    expect(await ids('?date_from=2025-04-02&date_to=2025-04-30')).toEqual([receipt]);
    expect(await ids('?date_from=2025-05-01')).toEqual([second]);
    expect(await ids(`?company_id=${looseCompanyId}`)).toEqual([loose]);
    expect(await ids('?status=queued&voucher_number=rct')).toEqual([receipt]);
    expect(await ids('?voucher_number=%25')).toEqual([]);
    expect(await transactions('?limit=2&offset=2')).toMatchObject({ total: 4, transactions: [{ job_id: receipt }, { job_id: invoice }] });

    const one = (await admin(relay, 'GET', `/admin/v1/console/transactions/${invoice}`, 200)).body.transaction;
    expect(one).toMatchObject({ job_id: invoice, books_company_name: BOOKS.name, sent_to_books: false });
    await admin(relay, 'GET', '/admin/v1/console/transactions/job_nope', 404);

    for (const bad of ['?amount=12abc', '?amount=-5', '?date_from=2025-02-30', '?date_from=2025-05-01&date_to=2025-04-01', '?status=lost', '?company_id=x']) {
      const { body } = await admin(relay, 'GET', `/admin/v1/console/transactions${bad}`, 400);
      expect(body.success).toBe(false);
    }
    await call(relay.app, 'GET', '/admin/v1/console/transactions', 401);
  });

  it('shows the books\' own number beside the one sent when the books renumbered the voucher, and finds it by either', async () => {
    const connectorId = await insertConnector(relay, tenant, { machine: 'SHARMA-PC', openCompanies: [BOOKS] });
    await admin(relay, 'POST', `/admin/v1/companies/${tenant.companyId}/pair`, 200, { connector_id: connectorId, books_company_guid: BOOKS.guid, books_company_name: BOOKS.name });
    const renumbered = await post(tenant.companyId, 'invoices', sampleInvoice);
    const kept = await post(tenant.companyId, 'invoices', secondInvoice);
    const queue = relay.app.bridge.jobQueue;
    await queue.claimForConnector(connectorId, { limit: 2, leaseMs: 60_000 });
    await queue.complete(renumbered, connectorId, { books_voucher_guid: 'vg-renumbered', books_master_id: '51' });
    await queue.complete(kept, connectorId, { books_voucher_guid: 'vg-kept', books_master_id: '52' });
    const pulled = (guid: string, number: string) => ({
      guid, alter_id: '1', master_id: '5', voucher_type: 'Sales', reserved_name: 'Sales', voucher_number: number, voucher_date: '20250401',
      party_ledger: 'Acme Retail', ledger_entries: [{ ledger: 'Acme Retail', amount: '-1180.00' }],
    });
    // Before a sync has read them back the console knows only the number sent.
    expect((await admin(relay, 'GET', `/admin/v1/console/transactions/${renumbered}`, 200)).body.transaction).toMatchObject({ voucher_number: 'INV-001', books_voucher_number: null });
    await relay.app.bridge.pulledData.upsertVouchers(tenant.companyId, [pulled('vg-renumbered', '17'), pulled('vg-kept', 'INV-002')]);

    const byId = new Map((await transactions()).transactions.map((t: { job_id: string }) => [t.job_id, t]));
    expect(byId.get(renumbered)).toMatchObject({ voucher_number: 'INV-001', books_voucher_number: '17' });
    expect(byId.get(kept)).toMatchObject({ voucher_number: 'INV-002', books_voucher_number: 'INV-002' });
    expect((await admin(relay, 'GET', `/admin/v1/console/transactions/${renumbered}`, 200)).body.transaction).toMatchObject({ books_voucher_number: '17' });
    // Support is handed the number printed in TallyPrime: it finds the write too.
    expect((await transactions('?voucher_number=17')).transactions.map((t: { job_id: string }) => t.job_id)).toEqual([renumbered]);
  });
});

describeOnDatabases('console webhook actions', (kind) => {
  let relay: TestRelay;
  let receiver: http.Server;
  let url: string;

  beforeEach(async () => {
    relay = await startBridgeRelay(kind);
    // A receiver that refuses with a JSON explanation, as real endpoints do.
    receiver = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(422, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unknown event type', hint: 'x'.repeat(6000) })));
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });
  afterEach(async () => {
    await relay.close();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('sends a test event, keeps the receiver’s answer with the attempt, disables, enables and deletes', async () => {
    const tenantId = (await admin(relay, 'POST', '/admin/v1/tenants', 201, { name: 'Hooks Co', org_id: 5 })).body.tenant.id;
    const endpoint = (await admin(relay, 'POST', `/admin/v1/tenants/${tenantId}/webhooks`, 201, { url })).body.webhook;
    const owner = `owner_kind=tenant&owner_id=${tenantId}`;
    const base = `/admin/v1/console/webhooks/${endpoint.id}`;

    const sent = (await admin(relay, 'POST', `${base}/test?${owner}`, 200)).body.delivery;
    expect(sent).toMatchObject({ event_type: 'webhook.test', status: 'pending', endpoint_id: endpoint.id });
    await relay.app.webhooks.deliveryLoop.runOnce();
    const history = (await admin(relay, 'GET', `${base}/deliveries?${owner}`, 200)).body;
    const [attempt] = history.deliveries[0].attempts;
    expect(attempt).toMatchObject({ status_code: 422, error: 'The receiver answered 422', duration_ms: expect.any(Number) });
    expect(attempt.response_body.startsWith('{"error":"unknown event type"')).toBe(true);
    expect(Buffer.byteLength(attempt.response_body)).toBe(4096);
    // The request body is the event's payload, the same bytes on every attempt.
    const detail = (await admin(relay, 'GET', `/admin/v1/webhook-deliveries/${sent.id}`, 200)).body.delivery;
    expect(JSON.parse(detail.payload)).toMatchObject({ type: 'webhook.test', data: { endpoint_id: endpoint.id } });

    expect((await admin(relay, 'POST', `${base}/state?${owner}`, 200, { enabled: false })).body.webhook).toMatchObject({ enabled: false, disabled_reason: 'Disabled on request' });
    expect((await admin(relay, 'POST', `${base}/test?${owner}`, 409)).body.error.code).toBe('webhook_endpoint_disabled');
    expect((await admin(relay, 'POST', `${base}/state?${owner}`, 200, { enabled: true })).body.webhook).toMatchObject({ enabled: true, disabled_reason: null });
    await admin(relay, 'POST', `${base}/state?${owner}`, 400, { enabled: 'yes' });

    // Another owner's endpoint is not found; then the owner's is deleted and gone from the list.
    await admin(relay, 'DELETE', `${base}?owner_kind=application&owner_id=${tenantId}`, 404);
    expect((await admin(relay, 'DELETE', `${base}?${owner}`, 200)).body).toEqual({ success: true, deleted: true });
    expect((await admin(relay, 'GET', `/admin/v1/console/webhooks?${owner}`, 200)).body.webhooks).toEqual([]);
    await admin(relay, 'POST', `${base}/test?${owner}`, 404);
  });
});
