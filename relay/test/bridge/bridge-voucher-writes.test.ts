// The nine voucher writes and the transaction reads, as a client of the contract: acceptance shape,
// validation (400 malformed, 422 wrong for the kind), missing masters accepted, the caller's own
// transaction id (idempotent, also under concurrency), alterations by GUID, voucher_kind by reserved name.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeOnDatabases, type TestRelay } from '@ledgerwire/test-kit';
import { admin, api, pairWithConnector, provisionTenant, sampleInvoice, sampleReceipt, startBridgeRelay, type Tenant } from './bridge-test-kit.js';

const party = (name: string, amount: number, isDebit: boolean, bills: unknown[] = []) => ({ ledger_name: name, amount, is_debit: isDebit, is_party: true, bill_allocations: bills });
const line = (name: string, amount: number, isDebit: boolean) => ({ ledger_name: name, amount, is_debit: isDebit });
const base = (type: string, number: string) => ({ voucher_number: number, voucher_type: type, party_ledger: 'Acme Retail', date: '2025-04-10' });

const WRITES: { path: string; kind: string; body: Record<string, unknown> }[] = [
  { path: 'invoices', kind: 'sales', body: sampleInvoice },
  {
    path: 'orders',
    kind: 'sales_order',
    body: {
      ...base('Sales Order', 'SO-1'),
      inventory_entries: [{ stock_item: 'Widget', quantity: 10, unit: 'Nos', rate: 100, amount: 1000, godown: 'Main Location' }],
      ledger_entries: [party('Acme Retail', 1000, true), line('Sales', 1000, false)],
    },
  },
  { path: 'credit-notes', kind: 'credit_note', body: { ...base('Credit Note', 'CN-1'), ledger_entries: [party('Acme Retail', 500, false), line('Sales Returns', 500, true)] } },
  { path: 'debit-notes', kind: 'debit_note', body: { ...base('Debit Note', 'DN-1'), party_ledger: 'Supplier Co', ledger_entries: [party('Supplier Co', 200, true), line('Purchase', 200, false)] } },
  { path: 'purchases', kind: 'purchase', body: { ...base('Purchase', 'PB-1'), party_ledger: 'Supplier Co', ledger_entries: [party('Supplier Co', 1000, false, [{ name: 'SUP-9', bill_type: 'New Ref', amount: 1000 }]), line('Purchase', 1000, true)] } },
  { path: 'receipts', kind: 'receipt', body: sampleReceipt },
  { path: 'payments', kind: 'payment', body: { ...base('Payment', 'PY-1'), party_ledger: 'Supplier Co', ledger_entries: [party('Supplier Co', 1000, true, [{ name: 'SUP-9', amount: 1000 }]), line('HDFC Bank', 1000, false)] } },
  { path: 'contras', kind: 'contra', body: { ...base('Contra', 'CT-1'), party_ledger: 'Cash', ledger_entries: [line('Cash', 500, true), line('HDFC Bank', 500, false)] } },
  { path: 'journals', kind: 'journal', body: { ...base('Journal', 'JV-1'), party_ledger: 'Depreciation', ledger_entries: [line('Depreciation', 100, true), line('Accumulated Depreciation', 100, false)] } },
];

describeOnDatabases('bridge voucher writes and transactions', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  let connectorId: string;
  const url = (path: string, companyId = tenant.companyId) => `/api/v1/${path}?company_id=${companyId}`;

  beforeAll(async () => {
    relay = await startBridgeRelay(kind);
    tenant = await provisionTenant(relay);
    connectorId = await pairWithConnector(relay, tenant);
  });
  afterAll(() => relay.close());

  it.each(WRITES.map((w) => [w.path, w] as const))('POST /api/v1/%s answers the acceptance and queues a transaction', async (_path, write) => {
    const { body } = await api(relay, tenant.credential, 'POST', url(write.path), 200, { payload: write.body });
    expect(body).toEqual({ success: true, transaction_id: expect.stringMatching(/^[0-9a-f-]{36}$/), job_id: body.transaction_id, company_id: tenant.companyId, request_type: 'in' });
    const { body: status } = await api(relay, tenant.credential, 'GET', `/api/v1/transactions/${body.transaction_id}`, 200);
    expect(status).toEqual({
      success: true,
      transaction: expect.objectContaining({
        job_id: body.transaction_id,
        transaction_id: body.transaction_id,
        service_company_id: tenant.companyId,
        job_type: 'voucher',
        event_type: `${write.kind}.create`,
        status: 'queued',
        retry_count: 0,
        max_retries: 5,
        books_voucher_guid: null,
        books_master_id: null,
        books_alter_id: null,
        error_code: null,
        error_label: null,
        error_message: null,
        payload: expect.objectContaining({ voucher_number: write.body['voucher_number'], voucher_type: write.body['voucher_type'], voucher_kind: write.kind }),
        created_at: expect.any(String),
        updated_at: expect.any(String),
        completed_at: null,
      }),
    });
  });

  it('the company may come from the X-Service-Company header', async () => {
    await api(relay, tenant.credential, 'POST', '/api/v1/invoices', 200, { payload: sampleInvoice, headers: { 'x-service-company': String(tenant.companyId) } });
  });

  it('malformed bodies are 400 at once, naming the field; nothing is queued', async () => {
    const before = await api(relay, tenant.credential, 'GET', `${url('transactions')}&limit=1`, 200);
    const bad = [
      { ...sampleInvoice, voucher_number: undefined },
      { ...sampleInvoice, date: '01-04-2025' },
      { ...sampleInvoice, date: '2025-02-30' },
      { ...sampleInvoice, ledger_entries: [{ ledger_name: 'Acme', amount: -5, is_debit: true }] },
      { ...sampleInvoice, ledger_entries: [{ ledger_name: 'Acme', amount: 5 }] },
      { ...sampleReceipt, ledger_entries: [{ ...sampleReceipt.ledger_entries[0], bill_allocations: [{ name: 'X', bill_type: 'Against', amount: 1 }] }] },
      { ...sampleInvoice, ledger_entries: [] },
    ];
    for (const payload of bad) {
      const { body } = await api(relay, tenant.credential, 'POST', url('invoices'), 400, { payload });
      expect(body.success).toBe(false);
      expect(body.error.details.length).toBeGreaterThan(0);
      // The message is the first problem itself, not a bare "malformed".
      expect(body.error.message.startsWith(body.error.details[0].message)).toBe(true);
    }
    const { body: two } = await api(relay, tenant.credential, 'POST', url('receipts'), 400, {
      payload: { ...sampleReceipt, party_ledger: undefined, date: '2025-02-30' },
    });
    expect(two.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['date', 'party_ledger']);
    expect(two.error.message).toMatch(/^The (date|party_ledger) field .+ \(and 1 more problem, listed in details\)$/);
    await call(relay.app, 'POST', url('invoices'), 400, { token: tenant.credential, headers: { 'content-type': 'application/json' }, payload: '{"voucher_number": ' });
    const after = await api(relay, tenant.credential, 'GET', `${url('transactions')}&limit=1`, 200);
    expect(after.body.total).toBe(before.body.total);
  });

  it('well-formed but wrong for the kind is 422 (inventory on a receipt)', async () => {
    const payload = { ...sampleReceipt, inventory_entries: [{ stock_item: 'Widget', quantity: 1, amount: 10 }] };
    const { body } = await api(relay, tenant.credential, 'POST', url('receipts'), 422, { payload });
    expect(body.error).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field: 'inventory_entries' })] });
  });

  it('a master that does not exist is not a synchronous error', async () => {
    const payload = { ...sampleInvoice, voucher_number: 'INV-404', ledger_entries: [party('Nobody Ltd ', 10, true), line('No Such Sales Ledger', 10, false)] };
    const { body } = await api(relay, tenant.credential, 'POST', url('invoices'), 200, { payload });
    expect(body.success).toBe(true);
  });

  it('the caller’s own transaction_id is idempotent per company, even when repeats race', async () => {
    const payload = { ...sampleInvoice, voucher_number: 'INV-IDEM', transaction_id: 'erp-inv-1' };
    const first = await api(relay, tenant.credential, 'POST', url('invoices'), 200, { payload });
    const again = await api(relay, tenant.credential, 'POST', url('invoices'), 200, { payload });
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    // The same own id with another body is not a repeat: a 409, and the first job stands.
    const { body: reused } = await api(relay, tenant.credential, 'POST', url('invoices'), 409, { payload: { ...payload, voucher_number: 'CHANGED' } });
    expect(reused.error.code).toBe('idempotency_conflict');
    const { body: byOwnId } = await api(relay, tenant.credential, 'GET', '/api/v1/transactions/erp-inv-1', 200);
    expect(byOwnId.transaction).toMatchObject({ job_id: first.body.transaction_id, transaction_id: 'erp-inv-1', payload: { voucher_number: 'INV-IDEM' } });

    const racing = { ...sampleInvoice, transaction_id: 'erp-race' };
    const answers = await Promise.all(Array.from({ length: 6 }, () => api(relay, tenant.credential, 'POST', url('invoices'), 200, { payload: racing })));
    expect(new Set(answers.map((a) => a.body.transaction_id)).size).toBe(1);
    const rows = await relay.app.database.db.selectFrom('transactions').select('job_id').where('client_transaction_id', '=', 'erp-race').execute();
    expect(rows).toHaveLength(1);

    // The same own id on another company is another job; reading it by own id then needs company_id.
    const { body: second } = await api(relay, tenant.credential, 'POST', '/api/v1/companies', 200, { payload: { name: 'Branch Books', customer_id: tenant.customerId } });
    const other = await api(relay, tenant.credential, 'POST', url('invoices', second.company_id), 200, { payload });
    expect(other.body.transaction_id).not.toBe(first.body.transaction_id);
    await api(relay, tenant.credential, 'GET', '/api/v1/transactions/erp-inv-1', 409);
    const { body: scoped } = await api(relay, tenant.credential, 'GET', `/api/v1/transactions/erp-inv-1?company_id=${second.company_id}`, 200);
    expect(scoped.transaction.job_id).toBe(other.body.transaction_id);
  });

  it('an own transaction_id of up to 200 characters reads back by id; a longer path id is a 400 in the API’s error body', async () => {
    const plain = `erp-${'a'.repeat(196)}`;
    // Slashes, spaces and non-ASCII travel percent-encoded; the router's limit counts decoded characters.
    const encoded = `ERP/2025 ñ ${'ü'.repeat(189)}`;
    for (const own of [plain, encoded]) {
      expect(own).toHaveLength(200);
      const { body } = await api(relay, tenant.credential, 'POST', url('invoices'), 200, { payload: { ...sampleInvoice, transaction_id: own } });
      const { body: read } = await api(relay, tenant.credential, 'GET', `/api/v1/transactions/${encodeURIComponent(own)}`, 200);
      expect(read.transaction).toMatchObject({ job_id: body.transaction_id, transaction_id: own });
    }
    const ownMasterId = `erp-ledger-${'m'.repeat(189)}`;
    const { body: master } = await api(relay, tenant.credential, 'POST', url('masters/ledger'), 200, { payload: { name: 'Long Id Ledger', parent: 'Sundry Debtors', transaction_id: ownMasterId } });
    const { body: masterRead } = await api(relay, tenant.credential, 'GET', `/api/v1/masters/ledger/${ownMasterId}`, 200);
    expect(masterRead.transaction).toMatchObject({ job_id: master.transaction_id, transaction_id: ownMasterId });

    // Longer than any id: the route's schema names the parameter; far longer: the router refuses it. Both in our shape.
    const { body: over } = await api(relay, tenant.credential, 'GET', `/api/v1/transactions/${'b'.repeat(201)}`, 400);
    expect(over).toEqual({ success: false, error: { code: 'bad_request', message: expect.stringMatching(/^The job field /), details: [{ field: 'job', message: expect.stringContaining('200') }] } });
    const huge = 'c'.repeat(5000);
    for (const path of [`/api/v1/transactions/${huge}`, `/api/v1/masters/ledger/${huge}`, `/api/v1/webhooks/${huge}`, `/admin/v1/transactions/${huge}`]) {
      const response = await call(relay.app, 'GET', path, 400, { token: tenant.credential });
      expect(response.headers['x-request-id']).toMatch(/^req_/);
      expect(response.body).toEqual({ success: false, error: { code: 'bad_request', message: expect.stringMatching(/^A path parameter is longer than \d+ characters/), details: [] } });
    }
    // The messaging API keeps its own error body for the same refusal.
    const messaging = await call(relay.app, 'GET', `/api/messages/${huge}`, 400);
    expect(messaging.body).toEqual({ error: expect.stringMatching(/^A path parameter is longer than/) });
    // A malformed percent-encoding is the router's other refusal: same body.
    const badUrl = await call(relay.app, 'GET', '/api/v1/transactions/erp%E0%A4%A', 400, { token: tenant.credential });
    expect(badUrl.body).toMatchObject({ success: false, error: { code: 'bad_request', message: expect.stringContaining('percent-encoding') } });
  });

  it('a body carrying books_voucher_guid alters that voucher, re-sent under the REMOTEID it was created with', async () => {
    // The books know a voucher the service booked by its create job's id (its REMOTEID): complete one.
    const [origin] = await relay.app.bridge.jobQueue.claimForConnector(connectorId, { limit: 1, leaseMs: 60_000 });
    expect(origin).toBeDefined();
    await relay.app.bridge.jobQueue.complete(origin?.job_id ?? '', connectorId, { books_voucher_guid: 'a1b2c3d4-vch-guid-0001', books_master_id: '1' });
    const { body } = await api(relay, tenant.credential, 'POST', url('invoices'), 200, { payload: { ...sampleInvoice, books_voucher_guid: 'a1b2c3d4-vch-guid-0001' } });
    const { body: status } = await api(relay, tenant.credential, 'GET', `/api/v1/transactions/${body.transaction_id}`, 200);
    expect(status.transaction).toMatchObject({
      event_type: 'sales.alter',
      payload: { action: 'alter', books_voucher_guid: 'a1b2c3d4-vch-guid-0001', target_job_id: origin?.job_id },
    });
    const { body: support } = await admin(relay, 'GET', `/admin/v1/transactions/${body.transaction_id}`, 200);
    expect(support.transaction.xml).toContain(`REMOTEID="${origin?.job_id}"`);
    expect(support.transaction.xml).toMatch(/ACTION="Create"/);
    expect(support.transaction.xml).not.toMatch(/ACTION="Alter"|TAGNAME/);
    // A GUID the service never saw cannot be altered in place: 422, nothing queued.
    const { body: refused } = await api(relay, tenant.credential, 'POST', url('invoices'), 422, { payload: { ...sampleInvoice, books_voucher_guid: 'never-seen-guid' } });
    expect(refused.error.details).toEqual([{ field: 'books_voucher_guid', message: expect.stringMatching(/names no voucher of this company/) }]);
  });

  it('voucher_kind comes from the voucher type’s reserved name (pulled masters), not its display name', async () => {
    await relay.app.bridge.pulledData.upsertMasters(tenant.companyId, [
      { guid: 'vt-1', alter_id: '1', master_id: '1', master_type: 'voucher_type', name: 'Adjustments', aliases: [], fields: { parent: 'Reversing Journal', reserved_name: 'Reversing Journal' } },
      { guid: 'vt-2', alter_id: '1', master_id: '2', master_type: 'voucher_type', name: 'Receipt', aliases: [], fields: { parent: 'Sales', reserved_name: 'Sales' } },
      { guid: 'vt-3', alter_id: '1', master_id: '3', master_type: 'voucher_type', name: 'Export Sale', aliases: [], fields: { parent: 'Receipt', reserved_name: '' } },
    ]);
    const kindOf = async (path: string, payload: Record<string, unknown>) => {
      const { body } = await api(relay, tenant.credential, 'POST', url(path), 200, { payload });
      return (await api(relay, tenant.credential, 'GET', `/api/v1/transactions/${body.transaction_id}`, 200)).body.transaction.payload.voucher_kind;
    };
    expect(await kindOf('journals', { ...WRITES[8]?.body, voucher_type: 'Adjustments' })).toBe('reversing_journal');
    expect(await kindOf('invoices', { ...sampleInvoice, voucher_type: 'Receipt' })).toBe('sales');
    expect(await kindOf('invoices', { ...sampleInvoice, voucher_type: 'Export Sale' })).toBe('sales');

    // A type the books have, of another kind than the endpoint's: refused before anything is queued.
    const before = await relay.app.database.db.selectFrom('transactions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const { body: refused } = await api(relay, tenant.credential, 'POST', url('invoices'), 422, { payload: { ...sampleInvoice, voucher_type: 'Adjustments' } });
    expect(refused.error.details).toEqual([
      { field: 'voucher_type', message: '"Adjustments" is a reversing journal voucher type in the books (it derives from Reversing Journal); a sales invoice needs a voucher type that derives from Sales' },
    ]);
    await api(relay, tenant.credential, 'POST', url('journals'), 422, { payload: { ...WRITES[8]?.body, voucher_type: 'Export Sale' } });
    const after = await relay.app.database.db.selectFrom('transactions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    // One the books do not have (yet) is not judged here: the connector checks it against the books.
    expect(await kindOf('receipts', { ...WRITES[5]?.body, voucher_type: 'Counter Receipt' })).toBe('receipt');
  });

  it('lists a company’s transactions with filters and paging; connector jobs show what a connector handled', async () => {
    const { body: all } = await api(relay, tenant.credential, 'GET', url('transactions'), 200);
    expect(all).toMatchObject({ success: true, company_id: tenant.companyId, total: expect.any(Number) });
    expect(all.count).toBe(all.transactions.length);
    const ids = all.transactions.map((t: any) => t.job_id);
    const { body: page } = await api(relay, tenant.credential, 'GET', `${url('transactions')}&limit=2&offset=1`, 200);
    expect(page.transactions.map((t: any) => t.job_id)).toEqual(ids.slice(1, 3));
    const { body: queued } = await api(relay, tenant.credential, 'GET', `${url('transactions')}&status=queued`, 200);
    expect(queued.transactions.every((t: any) => t.status === 'queued')).toBe(true);
    await api(relay, tenant.credential, 'GET', `${url('transactions')}&status=sleeping`, 400);

    const [claimed] = await relay.app.bridge.jobQueue.claimForConnector(connectorId, { limit: 1, leaseMs: 60_000 });
    await relay.app.bridge.jobQueue.complete(claimed?.job_id ?? '', connectorId, { books_voucher_guid: 'guid-done' });
    const connector = await relay.app.bridge.connectors.get(connectorId);
    const { body: jobs } = await api(relay, tenant.credential, 'GET', `/api/v1/connectors/${connector?.machine_name}/jobs`, 200);
    expect(jobs.connector).toMatchObject({ id: connectorId, machine_name: connector?.machine_name, online: true });
    expect(jobs.jobs.map((j: any) => j.job_id)).toContain(claimed?.job_id);
    expect(jobs.jobs.find((j: any) => j.job_id === claimed?.job_id)).toMatchObject({ status: 'completed', books_voucher_guid: 'guid-done' });
    const other = await provisionTenant(relay, { name: 'Other App' });
    await api(relay, other.credential, 'GET', `/api/v1/connectors/${connectorId}/jobs`, 404);
    await api(relay, other.credential, 'GET', `/api/v1/transactions/${claimed?.job_id}`, 404);
  });
});
