// Integration: the XML this module renders, imported into the books emulator over real HTTP (UTF-16LE, as
// the connector sends it), judged by the strict success rule; then read back with the export requests and
// parsers of this module.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_COMPANY, startEmulator, type RunningEmulator } from '@ledgerwire/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  booksGuidFor,
  BOOKS_REQUEST_CONTENT_TYPE,
  companyListRequest,
  decodeBooksResponse,
  describeImportFailure,
  encodeBooksRequest,
  importSucceeded,
  MASTER_TYPES,
  mastersChangedRequest,
  parseCompanyList,
  parseImportResponse,
  parseMasterExport,
  parseVoucherExport,
  PartyOptionalVoucherWriteIn,
  renderMasterImport,
  renderVoucherImport,
  VOUCHER_WRITE_ENDPOINTS,
  VOUCHER_WRITE_PATHS,
  voucherLookupRequest,
  voucherTypeIndex,
  vouchersChangedRequest,
  type MasterType,
  type VoucherDocumentInput,
  type VoucherWritePath,
} from '../src/index.js';

let emulator: RunningEmulator;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'lw-shared-emulator-'));
  emulator = await startEmulator({ port: 0, controlPort: 0, dataDir, seed: 'demo' });
});

afterAll(async () => {
  await emulator?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function post(xml: string): Promise<string> {
  const response = await fetch(emulator.xmlUrl, {
    method: 'POST',
    headers: { 'content-type': BOOKS_REQUEST_CONTENT_TYPE },
    body: encodeBooksRequest(xml),
  });
  expect(response.status).toBe(200);
  return decodeBooksResponse(new Uint8Array(await response.arrayBuffer()));
}

const base = { party_ledger: 'Ram & Sons', date: '2026-04-30' };
const DOCUMENTS: Record<VoucherWritePath, VoucherDocumentInput> = {
  'invoices': { ...base, voucher_number: 'LW-S-1', voucher_type: 'Sales',
    inventory_entries: [{ stock_item: 'Widget 12mm', unit: 'Nos', quantity: 10, rate: 100, amount: 1000, godown: 'Warehouse B' }],
    ledger_entries: [
      { ledger_name: 'Ram & Sons', amount: 1180, is_debit: true, is_party: true, bill_allocations: [{ name: 'LW-S-1', bill_type: 'New Ref', amount: 1180 }] },
      { ledger_name: 'Sales - Goods', amount: 1000, is_debit: false },
      { ledger_name: 'Output CGST', amount: 90, is_debit: false },
      { ledger_name: 'Output SGST', amount: 90, is_debit: false },
    ] },
  'orders': { ...base, voucher_number: 'LW-SO-1', voucher_type: 'Sales Order', inventory_entries: [{ stock_item: 'Gift Box', unit: 'Box', quantity: 5, amount: 250 }] },
  'credit-notes': { ...base, voucher_number: 'LW-CN-1', voucher_type: 'Credit Note',
    inventory_entries: [{ stock_item: 'Widget 12mm', unit: 'Nos', quantity: 1, rate: 100, amount: 100 }],
    ledger_entries: [
      { ledger_name: 'Ram & Sons', amount: 100, is_debit: false, is_party: true, bill_allocations: [{ name: 'INV-1002', amount: 100 }] },
      { ledger_name: 'Sales - Goods', amount: 100, is_debit: true },
    ] },
  'debit-notes': { ...base, party_ledger: 'Om Packaging House', voucher_number: 'LW-DN-1', voucher_type: 'Debit Note',
    ledger_entries: [
      { ledger_name: 'Om Packaging House', amount: 50, is_debit: true, is_party: true, bill_allocations: [{ name: 'OPH-501', amount: 50 }] },
      { ledger_name: 'Purchase - Goods', amount: 50, is_debit: false },
    ] },
  'purchases': { ...base, party_ledger: 'Om Packaging House', voucher_number: 'LW-P-1', voucher_type: 'Purchase',
    inventory_entries: [{ stock_item: 'Copper Wire', unit: 'Kgs', quantity: 2.5, rate: 700, amount: 1750, ledger_name: 'Purchase - Goods' }],
    ledger_entries: [{ ledger_name: 'Om Packaging House', amount: 1750, is_debit: false, is_party: true, bill_allocations: [{ name: 'PB-9', bill_type: 'New Ref', amount: 1750 }] }] },
  'receipts': { ...base, voucher_number: 'LW-R-1', voucher_type: 'Receipt',
    ledger_entries: [
      { ledger_name: 'HDFC Bank', amount: 5000, is_debit: true },
      { ledger_name: 'Ram & Sons', amount: 5000, is_debit: false, is_party: true, bill_allocations: [{ name: 'INV-1001', amount: 3000 }, { amount: 2000 }] },
    ] },
  'payments': { ...base, party_ledger: 'Om Packaging House', voucher_number: 'LW-PY-1', voucher_type: 'Payment',
    ledger_entries: [
      { ledger_name: 'Om Packaging House', amount: 10000, is_debit: true, is_party: true, bill_allocations: [{ name: 'OPH-501', amount: 10000 }] },
      { ledger_name: 'HDFC Bank', amount: 10000, is_debit: false },
    ] },
  'contras': { ...base, party_ledger: 'HDFC Bank', voucher_number: 'LW-C-1', voucher_type: 'Contra',
    ledger_entries: [{ ledger_name: 'Cash', amount: 100, is_debit: true }, { ledger_name: 'HDFC Bank', amount: 100, is_debit: false, is_party: true }] },
  'journals': { ...base, party_ledger: 'Office Rent', voucher_number: 'LW-J-1', voucher_type: 'Journal', narration: 'Rent accrual & dues',
    ledger_entries: [{ ledger_name: 'Office Rent', amount: 1, is_debit: true, is_party: true }, { ledger_name: 'Cash', amount: 1, is_debit: false }] },
};

describe('vouchers of every kind into the emulator', () => {
  for (const path of VOUCHER_WRITE_PATHS) {
    it(`${path}: CREATED=1 with nothing refused`, async () => {
      const xml = renderVoucherImport(DOCUMENTS[path], { companyName: DEMO_COMPANY, remoteId: `lw-it-${path}`, voucherKind: VOUCHER_WRITE_ENDPOINTS[path].voucher_kind });
      const response = parseImportResponse(await post(xml));
      expect(importSucceeded(response, 'create'), JSON.stringify(response)).toBe(true);
      expect(response.counters?.lastVchId).toBeGreaterThan(0);
    });
  }

  it('a balanced journal and a contra without party_ledger are booked and read back with their lines', async () => {
    const journal = PartyOptionalVoucherWriteIn.parse({
      voucher_number: 'LW-J-NP', voucher_type: 'Journal', date: '2026-05-02', narration: 'no party',
      ledger_entries: [{ ledger_name: 'Office Rent', amount: 750, is_debit: true }, { ledger_name: 'Cash', amount: 750, is_debit: false }],
    });
    const contra = PartyOptionalVoucherWriteIn.parse({
      voucher_number: 'LW-C-NP', voucher_type: 'Contra', date: '2026-05-02', narration: 'no party',
      ledger_entries: [{ ledger_name: 'Cash', amount: 40, is_debit: true }, { ledger_name: 'HDFC Bank', amount: 40, is_debit: false }],
    });
    for (const [doc, kind] of [[journal, 'journal'], [contra, 'contra']] as const) {
      const xml = renderVoucherImport(doc, { companyName: DEMO_COMPANY, remoteId: `lw-it-no-party-${kind}`, voucherKind: kind });
      expect(xml).not.toContain('PARTYLEDGERNAME');
      const response = parseImportResponse(await post(xml));
      expect(importSucceeded(response, 'create'), JSON.stringify(response)).toBe(true);
    }
    const types = voucherTypeIndex(parseMasterExport('voucher_type', await post(mastersChangedRequest('voucher_type', { companyName: DEMO_COMPANY }))));
    const booked = parseVoucherExport(await post(vouchersChangedRequest({ companyName: DEMO_COMPANY, fromDate: '2026-05-02', toDate: '2026-05-02' })), { voucherTypes: types })
      .filter((v) => v.narration === 'no party');
    expect(booked.map((v) => [v.voucher_kind, v.ledger_entries.map((e) => [e.ledger_name, e.is_debit, e.amount])]).sort()).toEqual([
      ['contra', [['Cash', true, '40.00'], ['HDFC Bank', false, '40.00']]],
      ['journal', [['Office Rent', true, '750.00'], ['Cash', false, '750.00']]],
    ]);
  });

  it('a resend with the same REMOTEID alters instead of booking twice', async () => {
    const xml = renderVoucherImport(DOCUMENTS.journals, { companyName: DEMO_COMPANY, remoteId: 'lw-it-journals' });
    const response = parseImportResponse(await post(xml));
    expect(response.counters).toMatchObject({ created: 0, altered: 1 });
    expect(importSucceeded(response, 'upsert')).toBe(true);
  });

  it('a missing ledger fails MASTER_NOT_FOUND with a readable message', async () => {
    const doc = { ...DOCUMENTS.journals, ledger_entries: [{ ledger_name: 'No Such Ledger', amount: 1, is_debit: true }, { ledger_name: 'Cash', amount: 1, is_debit: false }] };
    const response = parseImportResponse(await post(renderVoucherImport(doc, { companyName: DEMO_COMPANY, remoteId: 'lw-it-missing' })));
    expect(importSucceeded(response, 'create')).toBe(false);
    expect(describeImportFailure(response)).toMatchObject({ error_code: 'MASTER_NOT_FOUND', error_message: expect.stringContaining('"No Such Ledger"') });
  });

  it('unbalanced entries fail UNBALANCED_ENTRIES', async () => {
    const doc = { ...DOCUMENTS.journals, ledger_entries: [{ ledger_name: 'Office Rent', amount: 2, is_debit: true }, { ledger_name: 'Cash', amount: 1, is_debit: false }] };
    const response = parseImportResponse(await post(renderVoucherImport(doc, { companyName: DEMO_COMPANY, remoteId: 'lw-it-unbalanced' })));
    expect(describeImportFailure(response).error_code).toBe('UNBALANCED_ENTRIES');
  });

  it('a company that is not open fails COMPANY_NOT_OPEN', async () => {
    const response = parseImportResponse(await post(renderVoucherImport(DOCUMENTS.journals, { companyName: 'Not Loaded Co', remoteId: 'lw-it-company' })));
    expect(describeImportFailure(response).error_code).toBe('COMPANY_NOT_OPEN');
  });

  it('the vouchers read back with their kinds, dates and bills', async () => {
    const types = voucherTypeIndex(parseMasterExport('voucher_type', await post(mastersChangedRequest('voucher_type', { companyName: DEMO_COMPANY }))));
    const vouchers = parseVoucherExport(await post(vouchersChangedRequest({ companyName: DEMO_COMPANY, fromDate: '2026-04-01', toDate: '2026-04-30' })), { voucherTypes: types });
    const ours = vouchers.filter((v) => v.voucher_date === '20260430');
    expect(ours.map((v) => v.voucher_kind).sort()).toEqual(VOUCHER_WRITE_PATHS.map((p) => VOUCHER_WRITE_ENDPOINTS[p].voucher_kind).sort());
    const receipt = ours.find((v) => v.voucher_kind === 'receipt');
    expect(receipt?.bill_allocations.map((b) => [b.name, b.bill_type, b.amount])).toEqual([['INV-1001', 'Agst Ref', '3000.00'], ['', 'On Account', '2000.00']]);
    const journal = ours.find((v) => v.voucher_kind === 'journal');
    expect(journal?.narration).toBe('Rent accrual & dues');
  });

  it('finds a landed voucher by the GUID its LASTVCHID gives, then alters it under its REMOTEID without a second voucher', async () => {
    const resent = parseImportResponse(await post(renderVoucherImport(DOCUMENTS.contras, { companyName: DEMO_COMPANY, remoteId: 'lw-it-contras' })));
    expect(resent.counters).toMatchObject({ created: 0, altered: 1 });
    const company = parseCompanyList(await post(companyListRequest())).find((c) => c.name === DEMO_COMPANY);
    const first = parseImportResponse(await post(renderVoucherImport({ ...DOCUMENTS.contras, voucher_number: 'LW-C-2' }, { companyName: DEMO_COMPANY, remoteId: 'lw-it-contras-2' })));
    const guid = booksGuidFor(company?.guid ?? '', first.counters?.lastVchId ?? 0);
    const found = parseVoucherExport(await post(voucherLookupRequest({ companyName: DEMO_COMPANY, date: '2026-04-30', guid })));
    expect(found.map((v) => v.guid)).toEqual([guid]);
    const altered = { ...DOCUMENTS.contras, narration: 'moved to petty cash', ledger_entries: [
      { ledger_name: 'Cash', amount: 150, is_debit: true }, { ledger_name: 'HDFC Bank', amount: 150, is_debit: false, is_party: true },
    ] };
    const response = parseImportResponse(await post(renderVoucherImport(altered, { companyName: DEMO_COMPANY, action: 'Alter', remoteId: 'lw-it-contras-2' })));
    expect(importSucceeded(response, 'alter'), JSON.stringify(response)).toBe(true);
    const after = parseVoucherExport(await post(voucherLookupRequest({ companyName: DEMO_COMPANY, date: '2026-04-30', guid })));
    expect(after.map((v) => [v.narration, v.ledger_entries[0]?.amount])).toEqual([['moved to petty cash', '150.00']]);
    const contras = parseVoucherExport(await post(vouchersChangedRequest({ companyName: DEMO_COMPANY, fromDate: '2026-04-30', toDate: '2026-04-30' })))
      .filter((v) => v.voucher_type === 'Contra');
    expect(contras).toHaveLength(2);
  });

  it('finds nothing for a GUID that never landed', async () => {
    expect(parseVoucherExport(await post(voucherLookupRequest({ companyName: DEMO_COMPANY, date: '2026-04-30', guid: 'no-such-guid' })))).toEqual([]);
  });
});

const MASTERS: Record<MasterType, Record<string, unknown>> = {
  group: { name: 'LW Nested Debtors', parent: 'Sundry Debtors' },
  ledger: { name: 'LW Café & Co', aliases: ['LW Cafe'], parent: 'LW Nested Debtors', is_billwise: 'Yes', gstin: '29AAACL1234A1Z5', opening_balance: 0 },
  currency: { name: '€', mailing_name: 'Euro', original_name: '€', expanded_symbol: 'EUR', iso_code: 'EUR', decimal_places: 2 },
  unit: { name: 'Pcs', original_name: 'Pieces', is_simple_unit: 'Yes', decimal_places: 0 },
  godown: { name: 'LW Store', parent: 'Main Location' },
  stock_group: { name: 'LW Spares' },
  stock_category: { name: 'LW Grade A' },
  stock_item: { name: 'LW Bolt M6', parent: 'LW Spares', category: 'LW Grade A', base_units: 'Pcs' },
  voucher_type: { name: 'LW Tax Invoice', parent: 'Sales', numbering_method: 'Manual', prevent_duplicates: 'Yes', is_active: 'Yes' },
};

describe('masters of every type into the emulator', () => {
  it('creates each of the nine types (CREATED=1) and reads it back with the contract fields', async () => {
    for (const type of MASTER_TYPES) {
      const response = parseImportResponse(await post(renderMasterImport(type, MASTERS[type] as never, { companyName: DEMO_COMPANY })));
      expect(importSucceeded(response, 'create'), `${type}: ${JSON.stringify(response)}`).toBe(true);
    }
    for (const type of MASTER_TYPES) {
      const pulled = parseMasterExport(type, await post(mastersChangedRequest(type, { companyName: DEMO_COMPANY })));
      const ours = pulled.find((m) => m.name === MASTERS[type].name);
      expect(ours, type).toBeDefined();
      expect(ours?.guid).not.toBe('');
    }
    const ledger = parseMasterExport('ledger', await post(mastersChangedRequest('ledger', { companyName: DEMO_COMPANY }))).find((m) => m.name === 'LW Café & Co');
    expect(ledger?.aliases).toEqual(['LW Cafe']);
    expect(ledger?.fields).toMatchObject({ parent: 'LW Nested Debtors', is_billwise: 'Yes', gstin: '29AAACL1234A1Z5' });
    const voucherType = parseMasterExport('voucher_type', await post(mastersChangedRequest('voucher_type', { companyName: DEMO_COMPANY }))).find((m) => m.name === 'LW Tax Invoice');
    expect(voucherType?.fields).toMatchObject({ reserved_name: 'Sales', numbering_method: 'Manual', affects_stock: 'Yes', is_active: 'Yes' });
    const stockGroup = parseMasterExport('stock_group', await post(mastersChangedRequest('stock_group', { companyName: DEMO_COMPANY }))).find((m) => m.name === 'LW Spares');
    expect(stockGroup?.fields).toMatchObject({ is_batchwise: 'No' });
    const currency = parseMasterExport('currency', await post(mastersChangedRequest('currency', { companyName: DEMO_COMPANY }))).find((m) => m.name === '€');
    expect(currency?.fields).toMatchObject({ mailing_name: 'Euro', expanded_symbol: 'EUR', iso_code: 'EUR', decimal_places: '2' });
  });

  it('lists the companies with their alteration high-water marks', async () => {
    const companies = parseCompanyList(await post(companyListRequest()));
    const demo = companies.find((c) => c.name === DEMO_COMPANY);
    expect(demo?.guid).not.toBe('');
    expect(Number(demo?.alt_vch_id)).toBeGreaterThan(0);
    expect(Number(demo?.alt_mst_id)).toBeGreaterThan(0);
  });
});
