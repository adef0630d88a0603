// Pulled vouchers as the gateway stores them (PulledDataStore) and the caller reads them: the list
// under `invoices` with every filter (dates inclusive at both ends) and paging, the detail under
// `invoice`, acknowledgement (idempotent; an alteration after it makes the voucher pending again),
// deletions left out of lists, and the one-company statistics with its report entries.
import type { SyncVoucherItem } from '@ledgerwire/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnDatabases, type TestRelay } from '@ledgerwire/test-kit';
import { admin, api, createKey, pairWithConnector, provisionTenant, sampleReceipt, startBridgeRelay, type Tenant } from './bridge-test-kit.js';

function voucher(guid: string, date: string, reservedName: string, extra: Partial<SyncVoucherItem> = {}): SyncVoucherItem {
  return {
    guid,
    alter_id: '1',
    master_id: '10',
    voucher_type: reservedName,
    reserved_name: reservedName,
    voucher_number: `N-${guid}`,
    voucher_date: date,
    party_ledger: 'Acme Retail',
    ledger_entries: [{ ledger: 'Acme Retail', amount: '-1180.00' }],
    bill_allocations: [{ name: `N-${guid}`, bill_type: 'New Ref', amount: '-1180.00' }],
    ...extra,
  };
}

describeOnDatabases('bridge pulled vouchers', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  /** The job that booked g4 through the API. */
  let receiptJobId: string;
  const list = async (query: string, status = 200) =>
    (await api(relay, tenant.credential, 'GET', `/api/v1/pulled-vouchers?company_id=${tenant.companyId}${query}`, status)).body;

  beforeAll(async () => {
    relay = await startBridgeRelay(kind);
    tenant = await provisionTenant(relay, { capabilities: ['report.stock'] });
    // g4 was booked by a receipt written through the API: its job completed with that GUID.
    const connectorId = await pairWithConnector(relay, tenant);
    receiptJobId = (await api(relay, tenant.credential, 'POST', `/api/v1/receipts?company_id=${tenant.companyId}`, 200, { payload: sampleReceipt })).body.transaction_id;
    const queue = relay.app.bridge.jobQueue;
    expect((await queue.claimForConnector(connectorId, { limit: 1, leaseMs: 60_000 })).map((job) => job.job_id)).toEqual([receiptJobId]);
    expect(await queue.complete(receiptJobId, connectorId, { books_voucher_guid: 'g4' })).toBe(true);
    const store = relay.app.bridge.pulledData;
    await store.upsertVouchers(tenant.companyId, [
      voucher('g1', '20250331', 'Sales'),
      voucher('g2', '20250401', 'Sales', { voucher_type: 'Tax Invoice' }),
      voucher('g3', '20250415', 'Purchase', { party_ledger: 'Supplier Co' }),
      // The books read REMOTEID back as the voucher's own GUID, never the key that was sent.
      voucher('g4', '20250430', 'Receipt', { remote_id: 'g4' }),
      voucher('g5', '20250501', 'Sales'),
    ]);
  });
  afterAll(() => relay.close());

  it('lists results under `invoices` for every kind, with the contract’s fields', async () => {
    const body = await list('');
    expect(body).toMatchObject({ success: true, company_id: tenant.companyId, total: 5, count: 5, limit: 100, offset: 0 });
    expect(body.invoices.map((v: any) => v.books_voucher_guid)).toEqual(['g1', 'g2', 'g3', 'g4', 'g5']);
    expect(body.invoices[2]).toMatchObject({
      transaction_id: expect.stringMatching(/^pv_/),
      books_voucher_guid: 'g3',
      books_alter_id: '1',
      books_master_id: '10',
      voucher_kind: 'purchase',
      voucher_type: 'Purchase',
      voucher_number: 'N-g3',
      voucher_date: '20250415',
      party_ledger: 'Supplier Co',
      status: 'pending',
      bill_allocations: [{ name: 'N-g3', bill_type: 'New Ref', amount: '-1180.00' }],
      source_job_id: null,
    });
    expect(body.invoices[3].source_job_id).toBe(receiptJobId);
    expect((await api(relay, tenant.credential, 'GET', `/api/v1/pulled-vouchers/${body.invoices[3].transaction_id}`, 200)).body.invoice.source_job_id).toBe(receiptJobId);
  });

  it('filters by kind, exact type, status and dates inclusive at both ends; pages with limit/offset', async () => {
    expect((await list('&voucher_kind=sales')).invoices.map((v: any) => v.books_voucher_guid)).toEqual(['g1', 'g2', 'g5']);
    expect((await list('&voucher_type=Tax%20Invoice')).invoices.map((v: any) => v.books_voucher_guid)).toEqual(['g2']);
    expect((await list('&voucher_type=tax%20invoice')).invoices).toEqual([]);
    expect((await list('&start_date=2025-04-01&end_date=2025-04-30')).invoices.map((v: any) => v.books_voucher_guid)).toEqual(['g2', 'g3', 'g4']);
    expect((await list('&start_date=20250415&end_date=20250415')).invoices.map((v: any) => v.books_voucher_guid)).toEqual(['g3']);
    const page = await list('&limit=2&offset=2');
    expect(page).toMatchObject({ total: 5, count: 2, limit: 2, offset: 2 });
    expect(page.invoices.map((v: any) => v.books_voucher_guid)).toEqual(['g3', 'g4']);
    await list('&start_date=April', 400);
    await list('&limit=0', 400);
    await list('&status=done', 400);
  });

  it('reads one voucher under `invoice`, and 404s what is not the caller’s', async () => {
    const [first] = (await list('&limit=1')).invoices;
    const { body } = await api(relay, tenant.credential, 'GET', `/api/v1/pulled-vouchers/${first.transaction_id}`, 200);
    expect(body).toEqual({ success: true, invoice: first });
    await api(relay, tenant.credential, 'GET', `/api/v1/pulled-vouchers/${first.transaction_id}?company_id=${tenant.companyId}`, 200);
    await api(relay, tenant.credential, 'GET', '/api/v1/pulled-vouchers/pv_missing', 404);
    const other = await provisionTenant(relay, { name: 'Other' });
    await api(relay, other.credential, 'GET', `/api/v1/pulled-vouchers/${first.transaction_id}`, 404);
  });

  it('acknowledges idempotently; an alteration after acknowledgement makes it pending again', async () => {
    const all = (await list('')).invoices;
    const ids = all.slice(0, 2).map((v: any) => v.transaction_id);
    const { body } = await api(relay, tenant.credential, 'POST', '/api/v1/pulled-vouchers/ack', 200, { payload: { company_id: tenant.companyId, transaction_ids: [...ids, 'pv_unknown'] } });
    expect(body).toEqual({ success: true, company_id: tenant.companyId, acknowledged: 2, already_acknowledged: 0, not_found: ['pv_unknown'] });
    const { body: again } = await api(relay, tenant.credential, 'POST', '/api/v1/pulled-vouchers/ack', 200, { payload: { company_id: tenant.companyId, transaction_ids: ids } });
    expect(again).toMatchObject({ acknowledged: 0, already_acknowledged: 2, not_found: [] });
    expect((await list('&status=pending')).invoices.map((v: any) => v.books_voucher_guid)).toEqual(['g3', 'g4', 'g5']);
    expect((await list('&status=acknowledged')).invoices[0]).toMatchObject({ books_voucher_guid: 'g1', status: 'acknowledged', acknowledged_at: expect.any(String) });

    const store = relay.app.bridge.pulledData;
    await store.upsertVouchers(tenant.companyId, [voucher('g1', '20250331', 'Sales')]); // same alter id: still acknowledged
    expect((await list('&status=acknowledged')).invoices.map((v: any) => v.books_voucher_guid)).toEqual(['g1', 'g2']);
    await store.upsertVouchers(tenant.companyId, [voucher('g1', '20250331', 'Sales', { alter_id: '5', voucher_number: 'N-g1-edited' })]);
    const pending = (await list('&status=pending')).invoices;
    expect(pending.map((v: any) => v.books_voucher_guid)).toEqual(['g1', 'g3', 'g4', 'g5']);
    expect(pending[0]).toMatchObject({ books_alter_id: '5', voucher_number: 'N-g1-edited', transaction_id: all[0].transaction_id, acknowledged_at: null });
    await store.upsertVouchers(tenant.companyId, [voucher('g1', '20250331', 'Sales', { alter_id: '4', voucher_number: 'stale' })]);
    expect((await list('&voucher_kind=sales&limit=1')).invoices[0]).toMatchObject({ voucher_number: 'N-g1-edited', books_alter_id: '5' });

    await api(relay, tenant.credential, 'POST', '/api/v1/pulled-vouchers/ack', 400, { payload: { company_id: tenant.companyId, transaction_ids: [] } });
    const other = await provisionTenant(relay, { name: 'Other Ack' });
    await api(relay, tenant.credential, 'POST', '/api/v1/pulled-vouchers/ack', 403, { payload: { company_id: other.companyId, transaction_ids: ids } });
  });

  it('leaves GUIDs deleted in the books out of lists', async () => {
    await relay.app.bridge.pulledData.markVouchersDeleted(tenant.companyId, ['g5', 'never-seen']);
    const body = await list('');
    expect(body.total).toBe(4);
    expect(body.invoices.map((v: any) => v.books_voucher_guid)).not.toContain('g5');
  });

  it('statistics: one company, counts in the date range, report entries by capability and company flag', async () => {
    const url = `/api/v1/pulled-vouchers/statistics?company_id=${tenant.companyId}`;
    const { body: disabled } = await api(relay, tenant.credential, 'GET', url, 200);
    expect(disabled.reports).toEqual([
      { key: 'stock', label: 'Stock summary', enabled: false, capability: 'report.stock', status: 'disabled', rows: 0, last_updated_at: null },
      { key: 'gst', label: 'GST summary', enabled: false, capability: 'report.gst', status: 'disabled', rows: 0, last_updated_at: null },
    ]);
    expect(disabled.vouchers).toMatchObject({ total: 4, by_kind: { sales: 2, purchase: 1, receipt: 1 } });

    await admin(relay, 'PATCH', `/admin/v1/companies/${tenant.companyId}`, 200, { reports: { stock: true, gst: true } });
    const { body: waiting } = await api(relay, tenant.credential, 'GET', url, 200);
    expect(waiting.reports[0]).toMatchObject({ key: 'stock', enabled: true, status: 'pending', rows: 0, last_updated_at: null });
    expect(waiting.reports[1]).toMatchObject({ key: 'gst', enabled: false, status: 'disabled' }); // the key lacks report.gst

    await relay.app.bridge.pulledData.saveReportSnapshot(tenant.companyId, { key: 'stock', rows: [{ item: 'Widget' }, { item: 'Gadget' }, { item: 'Gizmo' }] });
    const { body } = await api(relay, tenant.credential, 'GET', `${url}&start_date=2025-04-01&end_date=2025-04-30`, 200);
    expect(body).toMatchObject({ success: true, company_id: tenant.companyId, start_date: '2025-04-01', end_date: '2025-04-30', vouchers: { total: 3 } });
    expect(body.reports[0]).toEqual({ key: 'stock', label: 'Stock summary', enabled: true, capability: 'report.stock', status: 'available', rows: 3, last_updated_at: expect.any(String) });

    const gstKey = await createKey(relay, tenant.applicationId, ['report.gst']);
    const { body: gst } = await api(relay, gstKey.credential, 'GET', url, 200);
    expect(gst.reports.map((r: any) => [r.key, r.status])).toEqual([['stock', 'disabled'], ['gst', 'pending']]);

    await api(relay, tenant.credential, 'GET', '/api/v1/pulled-vouchers/statistics', 400);
    const { body: second } = await api(relay, tenant.credential, 'POST', '/api/v1/companies', 200, { payload: { name: 'Second', customer_id: tenant.customerId } });
    await api(relay, tenant.credential, 'GET', `${url}&company_id=${second.company_id}`, 400);
  });

  it('date filters must be real calendar days, in order: a 400 naming the parameter on the list and the statistics', async () => {
    const statistics = async (query: string, status: number) =>
      (await api(relay, tenant.credential, 'GET', `/api/v1/pulled-vouchers/statistics?company_id=${tenant.companyId}${query}`, status)).body;
    const refusals: [string, string, RegExp][] = [
      ['&start_date=2026-02-30', 'start_date', /^The start_date field is not a real calendar date/],
      ['&end_date=2026-13-45', 'end_date', /^The end_date field is not a real calendar date/],
      ['&start_date=2026-99-99', 'start_date', /^The start_date field is not a real calendar date/],
      ['&end_date=20250229', 'end_date', /^The end_date field is not a real calendar date/],
      ['&start_date=20260230&end_date=2026-03-01', 'start_date', /^The start_date field is not a real calendar date/],
      ['&start_date=April', 'start_date', /^The start_date field must be a date, YYYY-MM-DD \(or YYYYMMDD\)$/],
      ['&start_date=2025-05-01&end_date=2025-04-01', 'start_date', /^The start_date field must not be after end_date \(2025-05-01 is after 2025-04-01\)$/],
      ['&start_date=20250501&end_date=2025-04-30', 'start_date', /must not be after end_date/],
    ];
    for (const [query, field, message] of refusals) {
      for (const body of [await list(query, 400), await statistics(query, 400)]) {
        expect(body).toEqual({ success: false, error: { code: 'bad_request', message: expect.stringMatching(message), details: [{ field, message: expect.stringMatching(message) }] } });
      }
    }
    // Real days pass, leap days where they exist, and a one-day range in either form.
    expect((await list('&start_date=2024-02-29&end_date=20250415')).invoices.map((v: any) => v.books_voucher_guid)).toEqual(['g1', 'g2', 'g3']);
    expect((await list('&start_date=2025-04-15&end_date=20250415')).invoices.map((v: any) => v.books_voucher_guid)).toEqual(['g3']);
    expect(await statistics('&start_date=2024-02-29&end_date=2024-02-29', 200)).toMatchObject({ start_date: '2024-02-29', end_date: '2024-02-29', vouchers: { total: 0 } });
  });

  it('keeps names and numbers as long as the books have them, verbatim', async () => {
    const other = await provisionTenant(relay, { name: 'Long Names' });
    const long = { voucher_type: `Tax Invoice ${'T'.repeat(240)}`, voucher_number: `INV/${'9'.repeat(260)}`, party_ledger: `Ram & Sons ${'R'.repeat(450)} ` };
    await relay.app.bridge.pulledData.upsertVouchers(other.companyId, [voucher('long-1', '20250402', 'Sales', long)]);
    const { body } = await api(relay, other.credential, 'GET', `/api/v1/pulled-vouchers?company_id=${other.companyId}`, 200);
    expect(body.invoices).toEqual([expect.objectContaining({ books_voucher_guid: 'long-1', voucher_kind: 'sales', ...long })]);
  });
});
