// Rendering vouchers as TallyPrime imports: the shapes of books-xml.md §3, the sign convention, escaping,
// REMOTEID, and a render → parse round trip for every kind of write.
import { describe, expect, it } from 'vitest';
import {
  INVOICE_VIEW,
  parseBooksXml,
  parseVoucherExport,
  renderVoucherImport,
  renderVoucherImportBatch,
  VOUCHER_WRITE_ENDPOINTS,
  VOUCHER_WRITE_PATHS,
  VoucherDocumentIn,
  VoucherRenderError,
  type VoucherDocumentInput,
  type VoucherWritePath,
} from '../src/index.js';

const COMPANY = 'Ledgerwire Demo Traders';

const party = (amount: number, isDebit: boolean, bills: object[] = []) => ({
  ledger_name: 'Ram & Sons', amount, is_debit: isDebit, is_party: true, bill_allocations: bills,
});

/** One representative document per write path. */
const DOCUMENTS: Record<VoucherWritePath, object> = {
  'invoices': {
    voucher_type: 'Sales', inventory_entries: [{ stock_item: 'Widget 12mm', unit: 'Nos', quantity: 10, rate: 100, amount: 1000, godown: 'Warehouse B' }],
    ledger_entries: [party(1180, true, [{ name: 'S-1', bill_type: 'New Ref', amount: 1180, credit_period: '30 Days' }]),
      { ledger_name: 'Sales - Goods', amount: 1000, is_debit: false }, { ledger_name: 'Output CGST', amount: 90, is_debit: false },
      { ledger_name: 'Output SGST', amount: 90, is_debit: false }],
    gst: { party_gstin: '29AAACR1234A1Z5', place_of_supply: 'Karnataka' },
  },
  'orders': { voucher_type: 'Sales Order', inventory_entries: [{ stock_item: 'Gift Box', unit: 'Box', quantity: 5, amount: 250 }] },
  'credit-notes': {
    voucher_type: 'Credit Note', reference: 'S-1', reference_date: '2026-04-10',
    inventory_entries: [{ stock_item: 'Widget 12mm', unit: 'Nos', quantity: 1, rate: 100, amount: 100 }],
    ledger_entries: [party(100, false, [{ name: 'S-1', amount: 100 }]), { ledger_name: 'Sales - Goods', amount: 100, is_debit: true }],
  },
  'debit-notes': {
    voucher_type: 'Debit Note', ledger_entries: [{ ...party(50, true), ledger_name: 'Om Packaging House' }, { ledger_name: 'Purchase - Goods', amount: 50, is_debit: false }],
  },
  'purchases': {
    voucher_type: 'Purchase', inventory_entries: [{ stock_item: 'Copper Wire', unit: 'Kgs', quantity: 2.5, rate: 700, amount: 1750, ledger_name: 'Purchase - Goods' }],
    ledger_entries: [{ ...party(1750, false, [{ name: 'PB-9', bill_type: 'New Ref', amount: 1750 }]), ledger_name: 'Om Packaging House' }],
  },
  'receipts': { voucher_type: 'Receipt', ledger_entries: [{ ledger_name: 'HDFC Bank', amount: 5000, is_debit: true }, party(5000, false, [{ name: 'INV-1001', amount: 3000 }, { amount: 2000 }])] },
  'payments': { voucher_type: 'Payment', party_ledger: 'Om Packaging House', ledger_entries: [{ ...party(18000, true, [{ name: 'OPH-501', amount: 18000 }]), ledger_name: 'Om Packaging House' }, { ledger_name: 'HDFC Bank', amount: 18000, is_debit: false }] },
  'contras': { voucher_type: 'Contra', ledger_entries: [{ ledger_name: 'Cash', amount: 100, is_debit: true }, { ledger_name: 'HDFC Bank', amount: 100, is_debit: false, is_party: true }] },
  'journals': { voucher_type: 'Journal', narration: 'Rent accrual', ledger_entries: [{ ledger_name: 'Office Rent', amount: 1, is_debit: true }, { ledger_name: 'Cash', amount: 1, is_debit: false }] },
};

function documentFor(path: VoucherWritePath): VoucherDocumentInput {
  return { voucher_number: `${path}-1`, party_ledger: 'Ram & Sons', date: '2026-04-30', ledger_entries: [], ...DOCUMENTS[path] } as unknown as VoucherDocumentInput;
}

function voucherNode(xml: string) {
  const root = parseBooksXml(xml) as any;
  const message = root.ENVELOPE.BODY.IMPORTDATA.REQUESTDATA.TALLYMESSAGE[0];
  return message.VOUCHER[0];
}

describe('renderVoucherImport', () => {
  it('wraps the voucher in the legacy Import Data envelope with the company set', () => {
    const xml = renderVoucherImport(documentFor('journals'), { companyName: 'Acme & Co', remoteId: 'job-1' });
    const root = parseBooksXml(xml) as any;
    expect(root.ENVELOPE.HEADER.TALLYREQUEST).toBe('Import Data');
    expect(root.ENVELOPE.BODY.IMPORTDATA.REQUESTDESC.REPORTNAME).toBe('Vouchers');
    expect(root.ENVELOPE.BODY.IMPORTDATA.REQUESTDESC.STATICVARIABLES.SVCURRENTCOMPANY).toBe('Acme & Co');
    expect(xml).toContain('<SVCURRENTCOMPANY>Acme &amp; Co</SVCURRENTCOMPANY>');
  });

  it('writes debits as ISDEEMEDPOSITIVE Yes with a negative amount, credits as No with a positive one', () => {
    const voucher = voucherNode(renderVoucherImport(documentFor('receipts'), { companyName: COMPANY, remoteId: 'job-2' }));
    const [bank, partyLine] = voucher['ALLLEDGERENTRIES.LIST'];
    expect([bank.LEDGERNAME, bank.ISDEEMEDPOSITIVE, bank.AMOUNT]).toEqual(['HDFC Bank', 'Yes', '-5000.00']);
    expect([partyLine.LEDGERNAME, partyLine.ISDEEMEDPOSITIVE, partyLine.ISPARTYLEDGER, partyLine.AMOUNT]).toEqual(['Ram & Sons', 'No', 'Yes', '5000.00']);
    expect(partyLine['BILLALLOCATIONS.LIST']).toEqual([
      { NAME: 'INV-1001', BILLTYPE: 'Agst Ref', AMOUNT: '3000.00' },
      { BILLTYPE: 'On Account', AMOUNT: '2000.00' },
    ]);
    expect(voucher['@_REMOTEID']).toBe('job-2');
    expect(voucher['@_VCHTYPE']).toBe('Receipt');
    expect(voucher['@_ACTION']).toBe('Create');
    expect([voucher.DATE, voucher.EFFECTIVEDATE, voucher.PERSISTEDVIEW]).toEqual(['20260430', '20260430', 'Accounting Voucher View']);
  });

  it('renders goods in invoice view: ledger lines in LEDGERENTRIES, the sales ledger inside the item, nothing counted twice', () => {
    const voucher = voucherNode(renderVoucherImport(documentFor('invoices'), { companyName: COMPANY, remoteId: 'job-3' }));
    expect(voucher['@_OBJVIEW']).toBe(INVOICE_VIEW);
    expect(voucher.ISINVOICE).toBe('Yes');
    expect(voucher['ALLLEDGERENTRIES.LIST']).toBeUndefined();
    expect(voucher['LEDGERENTRIES.LIST'].map((l: any) => l.LEDGERNAME)).toEqual(['Ram & Sons', 'Output CGST', 'Output SGST']);
    const [item] = voucher['ALLINVENTORYENTRIES.LIST'];
    expect([item.STOCKITEMNAME, item.ISDEEMEDPOSITIVE, item.RATE, item.AMOUNT, item.ACTUALQTY, item.BILLEDQTY]).toEqual(
      ['Widget 12mm', 'No', '100.00/Nos', '1000.00', ' 10.00 Nos', ' 10.00 Nos']);
    expect(item['BATCHALLOCATIONS.LIST'][0]).toMatchObject({ GODOWNNAME: 'Warehouse B', BATCHNAME: 'Primary Batch', AMOUNT: '1000.00' });
    expect(item['ACCOUNTINGALLOCATIONS.LIST'][0]).toEqual({ LEDGERNAME: 'Sales - Goods', ISDEEMEDPOSITIVE: 'No', AMOUNT: '1000.00' });
    const lines = [...voucher['LEDGERENTRIES.LIST'], ...voucher['ALLINVENTORYENTRIES.LIST'].map((i: any) => i['ACCOUNTINGALLOCATIONS.LIST'][0])];
    expect(lines.reduce((sum: number, l: any) => sum + Number(l.AMOUNT), 0)).toBeCloseTo(0, 6);
    expect([voucher.PARTYGSTIN, voucher.PLACEOFSUPPLY]).toEqual(['29AAACR1234A1Z5', 'Karnataka']);
  });

  it('keeps what the items do not absorb of their ledger line (a freight charge booked to the sales ledger)', () => {
    const doc = { ...documentFor('invoices'), ledger_entries: [
      { ledger_name: 'Ram & Sons', amount: 1050, is_debit: true, is_party: true },
      { ledger_name: 'Sales - Goods', amount: 1050, is_debit: false },
    ] } as VoucherDocumentInput;
    const voucher = voucherNode(renderVoucherImport(doc, { companyName: COMPANY }));
    expect(voucher['LEDGERENTRIES.LIST'].map((l: any) => [l.LEDGERNAME, l.AMOUNT])).toEqual([['Ram & Sons', '-1050.00'], ['Sales - Goods', '50.00']]);
  });

  it('takes inward goods as debits on purchases and on credit notes (returns)', () => {
    for (const path of ['purchases', 'credit-notes'] as const) {
      const voucher = voucherNode(renderVoucherImport(documentFor(path), { companyName: COMPANY, voucherKind: VOUCHER_WRITE_ENDPOINTS[path].voucher_kind }));
      const [item] = voucher['ALLINVENTORYENTRIES.LIST'];
      expect(item.ISDEEMEDPOSITIVE).toBe('Yes');
      expect(Number(item.AMOUNT)).toBeLessThan(0);
    }
  });

  it('escapes &, <, >, quotes and line breaks and keeps non-Latin text as it is', () => {
    const doc = {
      ...documentFor('journals'),
      party_ledger: 'नमस्ते ट्रेडर्स',
      voucher_type: 'Journal <adj> "Q"',
      narration: 'Rent & <dues>\r\nline two',
      ledger_entries: [{ ledger_name: 'Café Naïve & Co', amount: 1, is_debit: true }, { ledger_name: 'नमस्ते ट्रेडर्स', amount: 1, is_debit: false }],
    };
    const xml = renderVoucherImport(doc, { companyName: COMPANY, remoteId: 'a"b&c' });
    expect(xml).toContain('REMOTEID="a&quot;b&amp;c"');
    expect(xml).toContain('VCHTYPE="Journal &lt;adj&gt; &quot;Q&quot;"');
    expect(xml).toContain('<NARRATION>Rent &amp; &lt;dues&gt;&#13;&#10;line two</NARRATION>');
    expect(xml).toContain('<LEDGERNAME>Café Naïve &amp; Co</LEDGERNAME>');
    expect(xml).toContain('<PARTYLEDGERNAME>नमस्ते ट्रेडर्स</PARTYLEDGERNAME>');
    const voucher = voucherNode(xml);
    expect(voucher.NARRATION).toBe('Rent & <dues>\r\nline two');
    expect(voucher['@_REMOTEID']).toBe('a"b&c');
  });

  // EVIDENCE.md: a same-REMOTEID ACTION="Create" altered in place on licensed TallyPrime 7.1 (lamemustafa/bridge
  // TALLY_PROTOCOL_REFERENCE_WRITE_RESPONSES_AND_MASTERS.md §9.3); ACTION="Alter" by REMOTEID/GUID/MASTERID duplicated (§9.7).
  it('alters as a Create under the REMOTEID the voucher was created with, never ACTION="Alter"', () => {
    const voucher = voucherNode(renderVoucherImport(documentFor('journals'), { companyName: COMPANY, action: 'Alter', remoteId: 'create-job-1' }));
    expect([voucher['@_ACTION'], voucher['@_REMOTEID'], voucher['@_TAGNAME']]).toEqual(['Create', 'create-job-1', undefined]);
    expect(voucher['ALLLEDGERENTRIES.LIST']).toHaveLength(2);
    expect(() => renderVoucherImport(documentFor('journals'), { companyName: COMPANY, action: 'Alter' })).toThrow(VoucherRenderError);
  });

  it('refuses an invalid document with the problems listed, and requires the company', () => {
    expect(() => renderVoucherImport({ ...documentFor('journals'), date: '2026-02-30' }, { companyName: COMPANY })).toThrow(/date is not a real calendar date/);
    expect(() => renderVoucherImport(documentFor('journals'), { companyName: '' })).toThrow(/companyName is required/);
  });

  it('puts several vouchers in one request, one TALLYMESSAGE each', () => {
    const xml = renderVoucherImportBatch(COMPANY, [
      { document: documentFor('receipts'), options: { remoteId: 'a' } },
      { document: documentFor('payments'), options: { remoteId: 'b' } },
    ]);
    const root = parseBooksXml(xml) as any;
    expect(root.ENVELOPE.BODY.IMPORTDATA.REQUESTDATA.TALLYMESSAGE.map((m: any) => m.VOUCHER[0]['@_REMOTEID'])).toEqual(['a', 'b']);
  });
});

describe('render → parse round trip, every kind', () => {
  const types = new Map(
    VOUCHER_WRITE_PATHS.map((p) => [VOUCHER_WRITE_ENDPOINTS[p].reserved_voucher_type, { reservedName: VOUCHER_WRITE_ENDPOINTS[p].reserved_voucher_type, parent: '' }]),
  );
  for (const path of VOUCHER_WRITE_PATHS) {
    it(`${path}: the parsed voucher matches the document and pushes back as the same XML`, () => {
      const endpoint = VOUCHER_WRITE_ENDPOINTS[path];
      const document = VoucherDocumentIn.parse(documentFor(path));
      const options = { companyName: COMPANY, remoteId: `rt-${path}`, voucherKind: endpoint.voucher_kind };
      const xml = renderVoucherImport(document, options);
      const [pulled] = parseVoucherExport(xml, { voucherTypes: types });
      expect(pulled).toBeDefined();
      if (!pulled) return;
      expect(pulled.voucher_kind).toBe(endpoint.voucher_kind);
      expect([pulled.voucher_date, pulled.date, pulled.voucher_number, pulled.party_ledger]).toEqual(['20260430', '2026-04-30', document.voucher_number, document.party_ledger]);
      expect(pulled.remote_id).toBe(`rt-${path}`);
      // Every document bill comes back, on the ledger it was on.
      const sentBills = document.ledger_entries.flatMap((e) => e.bill_allocations.map((b) => [e.ledger_name, b.name ?? '', b.bill_type, b.amount.toFixed(2), e.is_debit]));
      expect(pulled.bill_allocations.map((b) => [b.ledger_name, b.name, b.bill_type, b.amount, b.is_debit])).toEqual(sentBills);
      expect(pulled.inventory_entries.map((i) => [i.stock_item, i.quantity, i.unit])).toEqual(document.inventory_entries.map((i) => [i.stock_item, i.quantity, i.unit]));
      // Pushed back unchanged, the pulled voucher renders the same import.
      expect(renderVoucherImport(pulled as VoucherDocumentInput, options)).toBe(xml);
    });
  }
});
