// Golden checks against native TallyPrime captures (fixtures/tally-samples, see SOURCES.md): the parsers
// turn real answers — `&#4;` markers, raw control bytes, UTF-16LE without BOM, NFD names, Devanagari —
// into the contract's objects.
import { describe, expect, it } from 'vitest';
import {
  BooksExportError,
  parseCompanyList,
  parseGuidList,
  parseMasterExport,
  parseVoucherExport,
  readExportAnswer,
  renderVoucherImport,
  RESERVED_VOUCHER_TYPE_NAMES,
  SyncMasterItem,
  SyncVoucherItem,
  VoucherDocumentIn,
  voucherTypeIndex,
  type VoucherDocumentInput,
} from '../src/index.js';
import { sample } from './helpers/tally-samples.js';

/** A default company's voucher types: every built-in, under its own name. */
const BUILT_IN_TYPES = new Map(RESERVED_VOUCHER_TYPE_NAMES.map((n) => [n as string, { reservedName: n as string, parent: n as string }]));

describe('companies', () => {
  it('lists the loaded companies with their GUIDs', () => {
    const companies = parseCompanyList(sample('bridge/company_collection_live.xml'));
    expect(companies.map((c) => [c.name, c.guid])).toEqual([
      ['Aarav Trading Company Demo', 'bb8ad19e-6aef-4239-a917-87fec0c6215e'],
      ['Bridge Ageing Lab', 'eebb9a9f-1679-4468-9e8f-814c729674cb'],
      ['Bridge Billwise Lab', '75f7566d-7a4f-431a-9642-e93a9d06d57d'],
    ]);
  });

  it('reads the company dates', () => {
    expect(parseCompanyList(sample('bridge/unit_a_company_extent_live.xml'))[0]).toMatchObject({ books_from: '20240401', last_voucher_date: '20260401' });
    expect(parseCompanyList(sample('Tally-MCP/company-list.xml'))[0]).toMatchObject({ name: 'EXAMPLE TRADING PRIVATE LIMITED', starting_from: '20210401', ending_at: '20220331' });
  });

  it('turns a STATUS 0 answer into COMPANY_NOT_OPEN', () => {
    let error: unknown;
    try {
      readExportAnswer(sample('bridge/bills_receivable_unloaded_company_failure.xml'));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(BooksExportError);
    expect((error as BooksExportError).failure.error_code).toBe('COMPANY_NOT_OPEN');
    expect((error as BooksExportError).message).toBe('The company "Bridge Ageing Lab" is not open in the books. Open it in TallyPrime.');
  });

  it('refuses an answer cut short between two companies instead of reading it as a shorter list', () => {
    const whole = sample('bridge/company_collection_live.xml');
    const cut = whole.slice(0, whole.indexOf('</COMPANY>', whole.indexOf('<COMPANY NAME=')) + '</COMPANY>'.length);
    expect(cut).toMatch(/<STATUS>1<\/STATUS>/);
    expect(() => parseCompanyList(cut)).toThrow(BooksExportError);
    expect(() => parseCompanyList(cut)).toThrow(/cut short/);
    expect(() => readExportAnswer(`${whole}\r\n\r\n`)).not.toThrow();
  });

  it('reads an empty <ENVELOPE></ENVELOPE> answer as nothing, and an unknown request as a failure', () => {
    expect(readExportAnswer(sample('bridge/bills_payable_billwise_lab_empty.xml')).objects('VOUCHER')).toEqual([]);
    expect(() => readExportAnswer('<RESPONSE>Unknown Request, cannot be processed</RESPONSE>')).toThrow(BooksExportError);
  });
});

describe('masters', () => {
  it('groups from UTF-16LE wire bytes: `&#4; Primary` cleaned, raw U+0003 dropped, identity, aliases', () => {
    const groups = parseMasterExport('group', sample('bridge/group_snapshot_wr2_with_identity.utf16le.xml'));
    expect(groups).toHaveLength(29);
    const bankOd = groups.find((g) => g.name === 'Bank OD A/c');
    // This capture carries no ISSUBLEDGER / ISDEEMEDPOSITIVE: a Yes/No the books leave out reads No (value rules 1, 4).
    expect(bankOd).toEqual({
      master_type: 'group', guid: '61c6de69-1748-461c-ad3f-162cb949df9f-0000000b', master_id: '11', alter_id: '12', name: 'Bank OD A/c',
      aliases: ['Bank OCC A/c'], fields: { parent: 'Loans (Liability)', is_subledger: 'No', is_deemed_positive: 'No', is_revenue: 'No', is_billwise: 'No' },
    });
    expect(groups.find((g) => g.name === 'Branch / Divisions')?.fields.parent).toBe('Primary');
    expect(groups.every((g) => Array.isArray(g.aliases) && g.fields.is_billwise === 'No')).toBe(true);
    expect(parseMasterExport('group', sample('bridge/group_snapshot_wr2.xml')).map((g) => g.name)).toEqual(groups.map((g) => g.name));
  });

  it('ledgers keep Devanagari and decomposed (NFD) names exactly as the books have them', () => {
    const ledgers = parseMasterExport('ledger', sample('bridge/ledgers_native_wr2_core_window.xml'));
    expect(ledgers.map((l) => l.name)).toContain('नमस्ते ट्रेडर्स');
    const nfd = ledgers.find((l) => l.master_id === '211');
    expect(nfd?.name).toBe('Cafe\u0301 NFD2 Probe WR3');
    expect(nfd?.name).not.toBe(nfd?.name.normalize('NFC'));
    expect(ledgers.find((l) => l.name === 'Profit & Loss A/c')?.fields.parent).toBe('Primary');
    expect(ledgers.find((l) => l.name === 'Bridge Nested Debtor WR4')?.fields).toMatchObject({ parent: 'Bridge Nested Debtors WR4', opening_balance: '-50000.00', is_billwise: 'No' });
    for (const ledger of ledgers) expect(SyncMasterItem.safeParse(ledger).success).toBe(true);
  });

  it('ledgers: is_billwise verbatim when present, "No" when missing', () => {
    const lab = parseMasterExport('ledger', sample('bridge/ledger_snapshot_validation_lab.xml'));
    expect(lab).toHaveLength(13);
    expect(lab.find((l) => l.name === 'BVL Alpha Traders')?.fields.is_billwise).toBe('Yes');
    expect(lab.find((l) => l.name === 'BVL Beta Supplies')?.fields.is_billwise).toBe('No');
    const noFlag = parseMasterExport('ledger', sample('bridge/unit_a_invalid_char_ref_live.xml'));
    expect(noFlag).toHaveLength(27);
    expect(noFlag.every((l) => l.fields.is_billwise === 'No')).toBe(true);
  });

  it('ledger list with maintainer comments, &amp; and an empty amount', () => {
    const ledgers = parseMasterExport('ledger', sample('Tally-MCP/ledger-list.xml'));
    expect(ledgers.find((l) => l.name === 'Output IGST')?.fields).toMatchObject({ parent: 'Duties & Taxes', opening_balance: '' });
  });

  it('voucher types: numbering from the series, not the legacy top-level "None"; custom types resolve to their built-in', () => {
    const types = parseMasterExport('voucher_type', sample('Tally-MCP/voucher-types.xml'));
    const byName = Object.fromEntries(types.map((t) => [t.name, t.fields]));
    expect(byName.Payment).toMatchObject({ reserved_name: 'Payment', numbering_method: 'Automatic', numbering_sub_method: 'Auto Retain' });
    expect(byName['Tax Invoice']).toMatchObject({ parent: 'Sales', reserved_name: 'Sales', numbering_method: 'Manual', numbering_sub_method: 'Default' });
    expect(byName.Payment?.numbering_series).toEqual([
      { name: 'Default', numbering_method: 'Automatic', numbering_sub_method: 'Auto Retain', prevent_duplicates: 'Yes', is_default: 'Yes' },
    ]);
    const native = parseMasterExport('voucher_type', sample('bridge/voucher_types_native_wr2.xml'));
    expect(native).toHaveLength(24);
    expect(native.every((t) => t.fields.reserved_name === t.name)).toBe(true);
  });

  it('a custom type whose parent is not in the answer resolves through known types', () => {
    const known = new Map([['Invoice (Renamed Sales)', { reservedName: 'Sales', parent: 'Sales' }]]);
    const xml = '<ENVELOPE><HEADER><VERSION>1</VERSION><STATUS>1</STATUS></HEADER><BODY><DATA><COLLECTION>' +
      '<VOUCHERTYPE NAME="Export Invoice" RESERVEDNAME=""><PARENT TYPE="String">Invoice (Renamed Sales)</PARENT></VOUCHERTYPE>' +
      '</COLLECTION></DATA></BODY></ENVELOPE>';
    expect(parseMasterExport('voucher_type', xml, { knownVoucherTypes: known })[0]?.fields.reserved_name).toBe('Sales');
    expect(parseMasterExport('voucher_type', xml)[0]?.fields.reserved_name).toBe('');
  });

  it('stock items keep quantities with their unit and negative (debit) values', () => {
    const [item] = parseMasterExport('stock_item', sample('Tally-MCP/stock-items-populated.xml'));
    expect(item?.fields).toEqual({
      parent: 'Primary', category: 'Not Applicable', base_units: 'Kgs.', opening_balance: '1100.00 Kgs.', closing_balance: '1000.00 Kgs.',
      closing_value: '-20000.00', gst_applicable: '',
    });
  });

  it('GUID lists for the deletion diff', () => {
    const guids = parseGuidList(sample('bridge/group_snapshot_wr2_with_identity.utf16le.xml'), 'GROUP');
    expect(guids).toHaveLength(29);
    expect(guids[0]).toEqual({ guid: '61c6de69-1748-461c-ad3f-162cb949df9f-00000016', alter_id: '23', name: 'Bank Accounts', date: '' });
  });
});

// 1.5 MB of vouchers: parsed once for the tests that read it (they do not modify the result).
let parsedWildcard: ReturnType<typeof parseVoucherExport> | undefined;
function wildcard(): ReturnType<typeof parseVoucherExport> {
  parsedWildcard ??= parseVoucherExport(sample('bridge/unit_a_vouchers_wildcard_live.xml'), { voucherTypes: BUILT_IN_TYPES });
  return parsedWildcard;
}

describe('vouchers', () => {
  it('75 vouchers of 7 kinds from a wildcard collection, every one balanced, bills on every kind', () => {
    const vouchers = wildcard();
    expect(vouchers).toHaveLength(75);
    const kinds: Record<string, number> = {};
    for (const v of vouchers) kinds[v.voucher_kind] = (kinds[v.voucher_kind] ?? 0) + 1;
    expect(kinds).toEqual({ payment: 34, sales: 12, purchase: 12, receipt: 12, journal: 1, credit_note: 2, debit_note: 2 });
    for (const v of vouchers) {
      const net = v.ledger_entries.reduce((sum, e) => sum + (e.is_debit ? -1 : 1) * Number(e.amount), 0);
      expect(Math.abs(net)).toBeLessThan(0.005);
      expect(v.voucher_date).toMatch(/^\d{8}$/);
    }
    const bills = vouchers.flatMap((v) => v.bill_allocations);
    expect(bills.filter((b) => b.bill_type === 'New Ref')).toHaveLength(28);
    expect(bills.filter((b) => b.bill_type === 'Agst Ref')).toHaveLength(24);
  });

  it('the first purchase reads as the accountant booked it: purchase and taxes debited, the party credited with a New Ref', () => {
    const [purchase] = wildcard();
    expect(purchase).toMatchObject({
      guid: 'bb8ad19e-6aef-4239-a917-87fec0c6215e-0000004b', master_id: '75', alter_id: '75', voucher_kind: 'purchase', reserved_name: 'Purchase',
      voucher_number: '1', voucher_date: '20250401', party_ledger: 'Om Packaging House',
    });
    expect(purchase?.ledger_entries.map((e) => [e.ledger_name, e.amount, e.is_debit, e.is_party])).toEqual([
      ['Purchase - Electronics', '64600.00', true, false],
      ['Input CGST 9%', '5814.00', true, false],
      ['Input SGST 9%', '5814.00', true, false],
      ['Om Packaging House', '76228.00', false, true],
    ]);
    expect(purchase?.bill_allocations).toEqual([{ ledger_name: 'Om Packaging House', name: 'PI/25-26/013', bill_type: 'New Ref', amount: '76228.00', is_debit: false }]);
  });

  it('every pulled voucher is a valid write document (pushed back unchanged) and a valid sync item', () => {
    for (const v of wildcard()) {
      const asDocument = VoucherDocumentIn.safeParse(v);
      expect(asDocument.success, JSON.stringify(asDocument.error?.issues)).toBe(true);
      expect(SyncVoucherItem.safeParse(v).success).toBe(true);
      // Rendered for import and read back, it is the same voucher (signs now in the canonical convention).
      const [again] = parseVoucherExport(renderVoucherImport(v as VoucherDocumentInput, { companyName: 'Aarav Trading Company Demo', remoteId: v.guid }), { voucherTypes: BUILT_IN_TYPES });
      expect(again?.ledger_entries).toEqual(v.ledger_entries);
      expect(again?.bill_allocations).toEqual(v.bill_allocations);
      expect([again?.voucher_kind, again?.voucher_date, again?.voucher_number, again?.narration]).toEqual([v.voucher_kind, v.voucher_date, v.voucher_number, v.narration]);
    }
  });

  it('a custom type ("Tax Invoice") is classified from its parent, not its name', () => {
    const types = voucherTypeIndex(parseMasterExport('voucher_type', sample('Tally-MCP/voucher-types.xml')));
    const vouchers = parseVoucherExport(sample('Tally-MCP/day-book-trading.xml'), { voucherTypes: types });
    expect(vouchers.map((v) => [v.voucher_type, v.voucher_kind])).toEqual([
      ['Payment', 'payment'], ['Sales', 'sales'], ['Tax Invoice', 'sales'], ['Purchase', 'purchase'],
    ]);
    expect(parseVoucherExport(sample('Tally-MCP/day-book-trading.xml')).every((v) => v.voucher_kind === 'other')).toBe(true);
  });

  it('day book: invoice with item and batch, bank allocation, and empty bill scaffolding dropped', () => {
    const [payment, sale] = parseVoucherExport(sample('Tally-MCP/day-book.xml'), { voucherTypes: BUILT_IN_TYPES });
    expect(payment?.bill_allocations).toEqual([]);
    expect(payment?.ledger_entries.every((e) => e.bill_allocations.length === 0)).toBe(true);
    expect(sale?.party_ledger).toBe('Bramley & Sons Accessories Private Limited');
    expect(sale?.inventory_entries).toEqual([
      { stock_item: 'Widget, 12mm', quantity: 100, unit: 'nos', rate: 505.05, amount: '50505.05', is_debit: false, godown: 'Main Location', batch: 'Primary Batch' },
    ]);
    expect(sale?.view).toBe('Invoice Voucher View');
  });

  it('Devanagari and accented parties; On Account bills carry no name', () => {
    const types = voucherTypeIndex(parseMasterExport('voucher_type', sample('bridge/voucher_types_native_wr2.xml')));
    const vouchers = parseVoucherExport(sample('bridge/vouchers_native_wr2.xml'), { voucherTypes: types });
    expect(vouchers.map((v) => [v.voucher_kind, v.ledger_entries[0]?.ledger_name])).toEqual([
      ['sales', 'नमस्ते ट्रेडर्स'], ['sales', 'Café Naïve Traders'], ['sales', 'WR2 XML Café Naïve Ledger 01A01A2F'],
    ]);
    expect(vouchers[0]?.ledger_entries[0]?.bill_allocations).toEqual([{ bill_type: 'On Account', amount: '101.01', is_debit: true }]);
  });

  it('optional vouchers are marked; mixed line endings are fine', () => {
    const vouchers = parseVoucherExport(sample('bridge/unit_a_optional_voucher_live.xml'), { voucherTypes: BUILT_IN_TYPES });
    expect(vouchers.map((v) => [v.voucher_kind, v.is_optional])).toEqual([['receipt', false], ['receipt', true]]);
  });

  it('an empty window (UTF-16LE) is no vouchers; vouchers outside the asked window are dropped', () => {
    expect(parseVoucherExport(sample('bridge/empty_voucher_window_wr2.utf16le.xml'))).toEqual([]);
    const leaked = sample('bridge/response-illegal-svtodate-bound-dropped-wr2.utf16le.xml');
    expect(parseVoucherExport(leaked).map((v) => v.voucher_date)).toEqual(['20260801', '20260801', '20260801']);
    expect(parseVoucherExport(leaked, { window: { fromDate: '2026-04-01', toDate: '2026-04-30' } })).toEqual([]);
  });
});
