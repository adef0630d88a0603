// Cancel and delete of a voucher through the API (POST /api/v1/vouchers/{voucher}/cancel | /delete), as a
// client of the contract on both databases: the acceptance, the job and the XML it renders (by Master ID,
// voucher type and a d-Mmm-yyyy date, the shape live TallyPrime honoured — shared/src/books-xml/EVIDENCE.md),
// addressing by books GUID or by the write's transaction id, idempotent replays, 404/400/409 refusals,
// a pulled voucher another hand booked, the voucher number the books assigned on the transaction, and
// the endpoints in the OpenAPI document with an example body.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeOnDatabases, type TestRelay } from '@ledgerwire/test-kit';
import { admin, api, pairWithConnector, provisionTenant, sampleInvoice, startBridgeRelay, type Tenant } from './bridge-test-kit.js';

const BOOKS_COMPANY = 'guid-books-company-1';

describeOnDatabases('bridge voucher cancel and delete', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  /** The invoice the API booked: job id, caller id, GUID in the books. */
  let invoiceJob: string;
  const invoiceGuid = `${BOOKS_COMPANY}-0000002a`;
  const url = (path: string) => `/api/v1/${path}${path.includes('?') ? '&' : '?'}company_id=${tenant.companyId}`;
  const xmlOf = async (jobId: string): Promise<string> => (await admin(relay, 'GET', `/admin/v1/transactions/${jobId}`, 200)).body.transaction.xml;

  beforeAll(async () => {
    relay = await startBridgeRelay(kind);
    tenant = await provisionTenant(relay);
    const connectorId = await pairWithConnector(relay, tenant, BOOKS_COMPANY);
    invoiceJob = (await api(relay, tenant.credential, 'POST', url('invoices'), 200, { payload: { ...sampleInvoice, transaction_id: 'inv-1042' } })).body.transaction_id;
    const queue = relay.app.bridge.jobQueue;
    expect((await queue.claimForConnector(connectorId, { limit: 1, leaseMs: 60_000 })).map((job) => job.job_id)).toEqual([invoiceJob]);
    // The connector reports the GUID the books formed from LASTVCHID 42 and that master id.
    expect(await queue.complete(invoiceJob, connectorId, { books_voucher_guid: invoiceGuid, books_master_id: '42' })).toBe(true);
  });
  afterAll(() => relay.close());

  it('cancels by books GUID: the acceptance, a job of the company, the Master ID cancel with its narration', async () => {
    const { body } = await api(relay, tenant.credential, 'POST', url(`vouchers/${invoiceGuid}/cancel`), 200, { payload: { narration: 'Voided: order cancelled' } });
    expect(body).toEqual({ success: true, transaction_id: expect.stringMatching(/^[0-9a-f-]{36}$/), job_id: body.transaction_id, company_id: tenant.companyId, request_type: 'in' });
    const { body: status } = await api(relay, tenant.credential, 'GET', `/api/v1/transactions/${body.transaction_id}`, 200);
    expect(status.transaction).toMatchObject({
      job_type: 'voucher',
      event_type: 'sales.cancel',
      status: 'queued',
      payload: { action: 'cancel', voucher_type: 'Sales', voucher_number: 'INV-001', date: '2025-04-01', books_voucher_guid: invoiceGuid, target_job_id: invoiceJob },
    });
    const xml = await xmlOf(body.transaction_id);
    expect(xml).toContain('<VOUCHER DATE="1-Apr-2025" TAGNAME="Master ID" TAGVALUE="42" VCHTYPE="Sales" ACTION="Cancel"><NARRATION>Voided: order cancelled</NARRATION></VOUCHER>');
    expect(xml).toContain('<REPORTNAME>Vouchers</REPORTNAME>');
  });

  it('deletes by the caller’s transaction id of the write; a repeat replays, another body under the same id is a 409', async () => {
    const first = await api(relay, tenant.credential, 'POST', url('vouchers/inv-1042/delete'), 200, { payload: { transaction_id: 'inv-1042-delete' } });
    const { body: status } = await api(relay, tenant.credential, 'GET', `/api/v1/transactions/inv-1042-delete?company_id=${tenant.companyId}`, 200);
    expect(status.transaction).toMatchObject({ job_id: first.body.transaction_id, transaction_id: 'inv-1042-delete', event_type: 'sales.delete', payload: { action: 'delete', books_voucher_guid: invoiceGuid } });
    expect(await xmlOf(first.body.transaction_id)).toContain('<VOUCHER DATE="1-Apr-2025" TAGNAME="Master ID" TAGVALUE="42" VCHTYPE="Sales" ACTION="Delete"></VOUCHER>');
    const again = await api(relay, tenant.credential, 'POST', url(`vouchers/${invoiceGuid}/delete`), 200, { payload: { transaction_id: 'inv-1042-delete' } });
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const reused = await api(relay, tenant.credential, 'POST', url(`vouchers/${invoiceGuid}/cancel`), 409, { payload: { transaction_id: 'inv-1042-delete' } });
    expect(reused.body.error.code).toBe('idempotency_conflict');
  });

  it('refuses an unknown voucher (404) and a malformed body (400), queueing nothing', async () => {
    const count = async () => Number((await relay.app.database.db.selectFrom('transactions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    const unknown = await api(relay, tenant.credential, 'POST', url('vouchers/no-such-guid/delete'), 404, { payload: {} });
    expect(unknown.body).toEqual({ success: false, error: { code: 'voucher_not_found', message: expect.any(String), details: [expect.objectContaining({ field: 'voucher' })] } });
    await api(relay, tenant.credential, 'POST', url(`vouchers/${invoiceGuid}/cancel`), 400, { payload: { narration: '' } });
    await api(relay, tenant.credential, 'POST', url(`vouchers/${invoiceGuid}/delete`), 400, { payload: { narration: 'deletes take none' } });
    // Another application's key does not reach the company.
    const other = await provisionTenant(relay, { name: 'Other App' });
    await api(relay, other.credential, 'POST', `/api/v1/vouchers/${invoiceGuid}/delete?company_id=${tenant.companyId}`, 403, { payload: {} });
    expect(await count()).toBe(before);
  });

  it('cancels a voucher another hand booked from its pulled copy, and refuses to alter it in place', async () => {
    await relay.app.bridge.pulledData.upsertVouchers(tenant.companyId, [
      {
        guid: `${BOOKS_COMPANY}-00000063`,
        master_id: '99',
        alter_id: '5',
        remote_id: null,
        voucher_kind: 'receipt',
        voucher_type: 'Counter Receipt',
        reserved_name: 'Receipt',
        voucher_number: '17',
        voucher_date: '20250531',
        date: '2025-05-31',
        party_ledger: 'Acme Retail',
        narration: '',
        reference: '',
        is_cancelled: false,
        is_optional: false,
        view: 'Accounting Voucher View',
        ledger_entries: [],
        inventory_entries: [],
        bill_allocations: [],
      },
    ]);
    // No body at all: every field is optional.
    const { body } = await api(relay, tenant.credential, 'POST', url(`vouchers/${BOOKS_COMPANY}-00000063/cancel`), 200);
    expect(await xmlOf(body.transaction_id)).toContain('<VOUCHER DATE="31-May-2025" TAGNAME="Master ID" TAGVALUE="99" VCHTYPE="Counter Receipt" ACTION="Cancel"><NARRATION>Cancelled</NARRATION></VOUCHER>');
    const { body: status } = await api(relay, tenant.credential, 'GET', `/api/v1/transactions/${body.transaction_id}`, 200);
    expect(status.transaction).toMatchObject({ event_type: 'receipt.cancel', payload: { voucher_number: '17' } });
    expect(status.transaction.payload.target_job_id).toBeUndefined();
    const refused = await api(relay, tenant.credential, 'POST', url('receipts'), 422, {
      payload: {
        voucher_number: '17',
        voucher_type: 'Counter Receipt',
        party_ledger: 'Acme Retail',
        date: '2025-05-31',
        ledger_entries: [
          { ledger_name: 'Acme Retail', amount: 10, is_debit: false, is_party: true },
          { ledger_name: 'Cash', amount: 10, is_debit: true },
        ],
        books_voucher_guid: `${BOOKS_COMPANY}-00000063`,
      },
    });
    expect(refused.body.error.details[0].message).toMatch(/not booked through this API/);
  });

  it('tells on the transaction the voucher number the books assigned, once the sync pulled the voucher', async () => {
    const before = (await api(relay, tenant.credential, 'GET', `/api/v1/transactions/${invoiceJob}`, 200)).body.transaction;
    expect(before.books_voucher_number).toBeNull();
    await relay.app.bridge.pulledData.upsertVouchers(tenant.companyId, [
      {
        guid: invoiceGuid, master_id: '42', alter_id: '3', remote_id: invoiceGuid, voucher_kind: 'sales', voucher_type: 'Sales', reserved_name: 'Sales',
        // Automatic numbering: the books discarded INV-001 and numbered it 7.
        voucher_number: '7', voucher_date: '20250401', date: '2025-04-01', party_ledger: 'Acme Retail', narration: '', reference: '',
        is_cancelled: false, is_optional: false, view: 'Accounting Voucher View', ledger_entries: [], inventory_entries: [], bill_allocations: [],
      },
    ]);
    const { body } = await api(relay, tenant.credential, 'GET', `/api/v1/transactions/${invoiceJob}`, 200);
    expect(body.transaction).toMatchObject({ books_voucher_guid: invoiceGuid, books_voucher_number: '7', books_alter_id: '3', payload: { voucher_number: 'INV-001' } });
    const list = await api(relay, tenant.credential, 'GET', url('transactions'), 200);
    expect(list.body.transactions.find((t: { job_id: string }) => t.job_id === invoiceJob)).toMatchObject({ books_voucher_number: '7' });
  });

  it('documents both endpoints in /docs with an example body', async () => {
    const { body: document } = await call(relay.app, 'GET', '/docs/json', 200);
    for (const action of ['cancel', 'delete']) {
      const operation = document.paths[`/api/v1/vouchers/{voucher}/${action}`]?.post;
      expect(operation, action).toBeDefined();
      expect(operation.responses['200']).toBeDefined();
      // The body is optional (null or left out): its object form is a component with the example.
      const refs = JSON.stringify(operation.requestBody).match(/#\/components\/schemas\/[\w-]+/g) ?? [];
      const examples = refs.map((ref) => document.components.schemas[ref.split('/').at(-1) ?? '']?.examples);
      expect(JSON.stringify(examples), action).toMatch(/inv-1042/);
      expect(operation.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['voucher', 'company_id']));
    }
  });
});
