// Sync against the emulator and a real relay: a first pass sends everything; a pass with nothing changed
// costs one probe; a later pass sends only what changed; an export the books cut short fails the pass
// instead of passing for the whole; deletions are found by a GUID diff; a pass cut short resumes after a
// restart from the last window the relay confirmed; one cut short by the connector stopping says so.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '@ledgerwire/test-kit';
import type { ConnectorHandle } from '../src/index.js';
import { openLocalDatabase } from '../src/core/state/local-database.js';
import { SyncStateStore } from '../src/core/state/sync-state-store.js';
import { enrolAndPair, startConnector, transactionSettled } from './helpers/connected-connector.js';
import { startTestEmulator, tempDataDir, type TestEmulator } from './helpers/test-emulator.js';
import { startCustomerRelay, type CustomerRelay } from './helpers/customer-relay.js';
import { documentsByEndpoint } from './helpers/voucher-documents.js';

let relay: CustomerRelay;
let books: TestEmulator;
let connector: ConnectorHandle | undefined;
let companyId: number;

beforeEach(async () => {
  relay = await startCustomerRelay({ env: { CONNECTOR_CLAIM_INTERVAL_MS: '200' } });
  books = await startTestEmulator({ vouchers: 60 });
  companyId = relay.companyIds[0] as number;
});
afterEach(async () => {
  await connector?.stop();
  connector = undefined;
  await relay.close();
  await books.close();
});

async function pulledTotal(): Promise<number> {
  const list = await relay.api('GET', `/api/v1/pulled-vouchers?company_id=${companyId}&limit=1`);
  return list.total;
}

/** Requests the sync made between two snapshots (presence checks run on their own timer and are left out). */
function requestDelta(before: Readonly<Record<string, number>>, after: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (before[k] ?? 0)]).filter(([k, v]) => v !== 0 && k !== 'presence'));
}

describe('sync', () => {
  it('sends everything once, then nothing but one probe when nothing changed, then only what changed', async () => {
    connector = await startConnector(books);
    const company = await enrolAndPair(connector, relay, books);
    await connector.syncNow();
    const inBooks = (await books.vouchers(company.guid)).length;
    expect(await pulledTotal()).toBe(inBooks);
    // Bill allocations travel with every kind, so a pulled voucher can be pushed back unchanged.
    const sales = await relay.api('GET', `/api/v1/pulled-vouchers?company_id=${companyId}&voucher_kind=sales&limit=5`);
    expect(sales.invoices.length).toBeGreaterThan(0);
    expect(sales.invoices[0].bill_allocations).toEqual(expect.arrayContaining([expect.objectContaining({ bill_type: 'New Ref' })]));
    const masters = await relay.api('GET', `/api/v1/pulled-masters/ledger?company_id=${companyId}&limit=200`);
    const party = masters.masters.find((m: { master_name: string }) => m.master_name === 'Ram & Sons');
    expect(party?.payload).toMatchObject({ aliases: [], fields: { is_billwise: 'Yes', parent: 'Sundry Debtors' } });
    const statistics = await relay.api('GET', `/api/v1/pulled-vouchers/statistics?company_id=${companyId}`);
    for (const key of ['stock', 'gst']) {
      const report = statistics.reports.find((r: { key: string }) => r.key === key);
      expect(report, key).toMatchObject({ status: 'available' });
      expect(report.rows, key).toBeGreaterThan(0);
    }

    const before = connector.service.books.requestCounts();
    const results = await connector.service.sync();
    expect(results).toEqual([{ companyId, ok: true, summary: 'up to date' }]);
    expect(requestDelta(before, connector.service.books.requestCounts())).toEqual({ probe: 1 });

    const acceptance = await relay.api('POST', `/api/v1/journals?company_id=${companyId}`, documentsByEndpoint('S1').journals);
    await transactionSettled(relay, acceptance.transaction_id, companyId);
    const changed = await connector.service.sync();
    expect(changed[0]?.summary).toBe('1 voucher sent');
    expect(await pulledTotal()).toBe(inBooks + 1);
  });

  it('pulls an item invoice with its party line, its items’ ledger and the job that booked it', async () => {
    connector = await startConnector(books);
    await enrolAndPair(connector, relay, books);
    const acceptance = await relay.api('POST', `/api/v1/orders?company_id=${companyId}`, documentsByEndpoint('P1').orders);
    const transaction = await transactionSettled(relay, acceptance.transaction_id, companyId);
    expect(transaction.status).toBe('completed');
    await connector.syncNow();
    const orders = await relay.api('GET', `/api/v1/pulled-vouchers?company_id=${companyId}&voucher_kind=sales_order&limit=200`);
    const order = orders.invoices.find((v: { books_voucher_guid: string }) => v.books_voucher_guid === transaction.books_voucher_guid);
    expect(order).toMatchObject({ view: 'Invoice Voucher View', party_ledger: 'Acme Retail Pvt Ltd', source_job_id: acceptance.transaction_id });
    expect(order.ledger_entries).toEqual([
      expect.objectContaining({ ledger_name: 'Acme Retail Pvt Ltd', amount: '200.00', is_debit: true, is_party: true }),
      expect.objectContaining({ ledger_name: 'Sales - Goods', amount: '200.00', is_debit: false, is_party: false }),
    ]);
    expect(order.inventory_entries).toEqual([expect.objectContaining({ stock_item: 'Widget 12mm', quantity: 2, amount: '200.00', ledger_name: 'Sales - Goods' })]);
  });

  it('takes an export cut short (STATUS 1 still at its top) for a failed pass, never for the whole; the next pass sends what it missed', async () => {
    connector = await startConnector(books);
    const company = await enrolAndPair(connector, relay, books);
    await connector.syncNow();
    for (const reference of ['T1', 'T2', 'T3', 'T4', 'T5', 'T6']) {
      const acceptance = await relay.api('POST', `/api/v1/journals?company_id=${companyId}`, documentsByEndpoint(reference).journals);
      await transactionSettled(relay, acceptance.transaction_id, companyId);
    }
    const cursor = connector.service.syncState.cursor(companyId, 'vouchers');
    await books.control('POST', '/faults', { kind: 'truncate-export', id: 'LedgerwireVouchers' });
    const cut = await connector.service.sync();
    expect(cut).toEqual([{ companyId, ok: false, summary: expect.stringMatching(/^sync stopped: .*cut short/) }]);
    // A books failure is logged as it is.
    expect(connector.service.recentLog(5).map((entry) => entry.message)).toContainEqual(expect.stringMatching(new RegExp(`^company ${companyId}: sync stopped: .*cut short`)));
    expect(connector.service.syncState.cursor(companyId, 'vouchers')).toBe(cursor);
    expect(await books.control('GET', '/status')).toMatchObject({ faults: [] });

    const again = await connector.service.sync();
    expect(again).toEqual([{ companyId, ok: true, summary: '6 vouchers sent' }]);
    expect(await pulledTotal()).toBe((await books.vouchers(company.guid)).length);
  });

  it('refreshes reports on the next pass when their refresh failed, even with nothing else changed', async () => {
    connector = await startConnector(books);
    await enrolAndPair(connector, relay, books);
    await connector.syncNow();
    await books.control('POST', '/faults', { kind: 'truncate-export', id: 'LedgerwireStockSummary' });
    const acceptance = await relay.api('POST', `/api/v1/journals?company_id=${companyId}`, documentsByEndpoint('R1').journals);
    await transactionSettled(relay, acceptance.transaction_id, companyId);
    const stale = await connector.service.sync();
    expect(stale).toEqual([{ companyId, ok: true, summary: '1 voucher sent' }]);
    expect(connector.service.recentLog(5).map((entry) => entry.message)).toContainEqual(expect.stringMatching(new RegExp(`^company ${companyId}: reports not refreshed: .*cut short`)));

    const before = connector.service.books.requestCounts();
    expect(await connector.service.sync()).toEqual([{ companyId, ok: true, summary: 'up to date' }]);
    expect(requestDelta(before, connector.service.books.requestCounts())).toEqual({ probe: 1, report: 2 });
    const settled = connector.service.books.requestCounts();
    await connector.service.sync();
    expect(requestDelta(settled, connector.service.books.requestCounts())).toEqual({ probe: 1 });
  });

  it('follows stock closing figures that vouchers move without altering the stock item', async () => {
    connector = await startConnector(books);
    await enrolAndPair(connector, relay, books);
    await connector.syncNow();
    const widget = async () => {
      const list = await relay.api('GET', `/api/v1/pulled-masters/stock_item?company_id=${companyId}&limit=200`);
      return list.masters.find((m: { master_name: string }) => m.master_name === 'Widget 12mm');
    };
    const first = await widget();
    const quantity = (master: { payload: { fields: { closing_balance: string } } }) => Number.parseFloat(master.payload.fields.closing_balance);
    const sale = {
      voucher_number: 'INV-STOCK-1', voucher_type: 'Sales', party_ledger: 'Ram & Sons', date: '2026-04-15',
      inventory_entries: [{ stock_item: 'Widget 12mm', unit: 'Nos', quantity: 3, rate: 100, amount: 300 }],
      ledger_entries: [
        { ledger_name: 'Ram & Sons', amount: 300, is_debit: true, is_party: true },
        { ledger_name: 'Sales - Goods', amount: 300, is_debit: false },
      ],
    };
    const acceptance = await relay.api('POST', `/api/v1/invoices?company_id=${companyId}`, sale);
    expect((await transactionSettled(relay, acceptance.transaction_id, companyId)).status).toBe('completed');

    const before = connector.service.books.requestCounts();
    expect(await connector.service.sync()).toEqual([{ companyId, ok: true, summary: '1 voucher sent' }]);
    const after = await widget();
    expect(after.payload.books.alter_id).toBe(first.payload.books.alter_id);
    expect(quantity(after)).toBe(quantity(first) - 3);
    expect(after.payload.fields.closing_value).not.toBe(first.payload.fields.closing_value);
    // The voucher, then stock groups and stock items read again once for that change (and the reports),
    // then nothing but the probe until vouchers move again.
    expect(requestDelta(before, connector.service.books.requestCounts())).toEqual({ probe: 1, export: 3, report: 2 });
    const settled = connector.service.books.requestCounts();
    await connector.service.sync();
    expect(requestDelta(settled, connector.service.books.requestCounts())).toEqual({ probe: 1 });
  });

  it('finds a voucher deleted in the books by a GUID diff and tells the relay', async () => {
    connector = await startConnector(books);
    const company = await enrolAndPair(connector, relay, books);
    const acceptance = await relay.api('POST', `/api/v1/journals?company_id=${companyId}`, documentsByEndpoint('D1').journals);
    const transaction = await transactionSettled(relay, acceptance.transaction_id, companyId);
    await connector.syncNow();
    const total = await pulledTotal();
    const voucher = (await books.vouchers(company.guid)).find((v) => v.guid === transaction.books_voucher_guid);
    // Someone deletes the voucher in TallyPrime.
    await connector.service.books.request(
      '<ENVELOPE><HEADER><TALLYREQUEST>Import Data</TALLYREQUEST></HEADER><BODY><IMPORTDATA><REQUESTDESC><REPORTNAME>Vouchers</REPORTNAME>' +
        `<STATICVARIABLES><SVCURRENTCOMPANY>${company.name}</SVCURRENTCOMPANY></STATICVARIABLES></REQUESTDESC><REQUESTDATA><TALLYMESSAGE>` +
        `<VOUCHER REMOTEID="${voucher?.remoteId}" VCHTYPE="Journal" ACTION="Delete"><NARRATION>deleted</NARRATION></VOUCHER>` +
        '</TALLYMESSAGE></REQUESTDATA></IMPORTDATA></BODY></ENVELOPE>',
    );
    expect((await books.vouchers(company.guid)).some((v) => v.guid === transaction.books_voucher_guid)).toBe(false);
    const results = await connector.service.sync({ deletions: true });
    expect(results[0]?.summary).toMatch(/\b1 deletion sent$/);
    expect(await pulledTotal()).toBe(total - 1);
  });

  it('resumes a pass cut short from the last window the relay confirmed, after a restart', async () => {
    const dataDir = tempDataDir();
    // Small windows so the first pass goes month by month.
    const small = { syncWindowVouchers: 5, syncBatchItems: 5 };
    connector = await startConnector(books, dataDir, small);
    const company = await enrolAndPair(connector, relay, books);
    let cut = false;
    const off = connector.onStatusChange((status) => {
      if (!cut && status.sync.progress?.phase === 'vouchers' && status.sync.progress.done >= 3) {
        cut = true;
        void relay.stop();
      }
    });
    await connector.syncNow();
    off();
    expect(cut).toBe(true);
    const cursor = connector.service.syncState.cursor(companyId, 'vouchers');
    expect(JSON.parse(cursor ?? '{}')).toMatchObject({ t: expect.any(Number), w: expect.stringMatching(/^\d{8}$/) });
    const confirmedBefore = connector.service.syncState.knownCount(companyId, 'voucher');
    await connector.stop();

    connector = await startConnector(books, dataDir, small);
    await relay.start();
    const total = (await books.vouchers(company.guid)).length;
    await eventually('every voucher to reach the relay', async () => (await pulledTotal()) === total, { timeoutMs: 30_000 });
    await eventually('the resumed pass to finish', () => connector?.status().pairings[0]?.lastSyncResult?.includes('vouchers'));
    const resumedSent = Number(/(\d+) vouchers/.exec(connector.status().pairings[0]?.lastSyncResult ?? '')?.[1]);
    expect(resumedSent).toBe(total - confirmedBefore);
  });

  it('says a sync the connector’s own stop cut short resumes at the next start, instead of the cut connection’s error', async () => {
    const dataDir = tempDataDir();
    const log: string[] = [];
    connector = await startConnector(books, dataDir, { syncWindowVouchers: 5, syncBatchItems: 5 }, (record) => log.push(`${record.level} ${record.message}`));
    let inVouchers = false;
    const off = connector.onStatusChange((status) => {
      if (status.sync.progress?.phase === 'vouchers') inVouchers = true;
    });
    // Pairing starts the first pass; once it sends vouchers, the books hang on the next request.
    await enrolAndPair(connector, relay, books);
    await eventually('the first pass to send vouchers', () => inVouchers);
    off();
    await books.control('POST', '/faults', { kind: 'stall-next' });
    await eventually('a request to hang in the books', async () => (await books.control('GET', '/status')).stalled);
    await connector.stop();
    connector = undefined;

    expect(log).toContainEqual(`info company ${companyId}: sync cut short because the connector is stopping; it resumes from its saved cursors at the next start`);
    expect(log.filter((line) => /sync stopped|reports not refreshed|sync could not start|ECONNRESET|socket hang up/.test(line))).toEqual([]);
    // Nor does the company read as failed at the next start.
    const db = openLocalDatabase(dataDir);
    try {
      expect(new SyncStateStore(db).run(companyId)).toMatchObject({ lastError: null });
    } finally {
      db.close();
    }
  });
});
