// The voucher shapes the connector writes for alteration, cancel and delete, and the readback mapping
// of what live TallyPrime answers, each against its public source (shared/src/books-xml/EVIDENCE.md).
import { describe, expect, it } from 'vitest';
import {
  describeImportFailure,
  parseBooksXml,
  parseImportResponse,
  parseVoucherExport,
  RESERVED_VOUCHER_TYPE_NAMES,
  renderVoucherRemovalImport,
  tagDate,
} from '../src/index.js';
import { sample } from './helpers/tally-samples.js';

const TYPES = new Map(RESERVED_VOUCHER_TYPE_NAMES.map((n) => [n as string, { reservedName: n as string, parent: n as string }]));

function voucherOf(xml: string) {
  const root = parseBooksXml(xml) as any;
  return root.ENVELOPE.BODY.IMPORTDATA.REQUESTDATA.TALLYMESSAGE[0].VOUCHER[0];
}

describe('cancel and delete by Master ID', () => {
  // Delete: `<VOUCHER DATE="2-Apr-2026" TAGNAME="Master ID" TAGVALUE="3" ACTION="Delete" VCHTYPE="Journal"></VOUCHER>`
  // removed a voucher on TallyPrime 7.0 (deleted=1, read back); ripu-nuvanta/tally_agent cleans up its probes the same way.
  it('deletes with TAGNAME="Master ID", a d-Mmm-yyyy DATE attribute, VCHTYPE and an empty body', () => {
    const xml = renderVoucherRemovalImport({ companyName: 'Acme & Co', action: 'Delete', masterId: 3, date: '2026-04-02', voucherTypeName: 'Journal' });
    expect(xml).toContain('<VOUCHER DATE="2-Apr-2026" TAGNAME="Master ID" TAGVALUE="3" VCHTYPE="Journal" ACTION="Delete"></VOUCHER>');
    expect(xml).toContain('<REPORTNAME>Vouchers</REPORTNAME>');
    expect(xml).toContain('<SVCURRENTCOMPANY>Acme &amp; Co</SVCURRENTCOMPANY>');
  });

  // Cancel: ripu-nuvanta/tally_agent LESSONS.md and its 2026-09-24 log: ACTION="Cancel" + TAGNAME="Master ID" keeping the
  // narration answered ALTERED=1 and read back IsCancelled=Yes; an empty cancel body is refused ("Cannot process 'empty' object").
  it('cancels by Master ID with a NARRATION body, never an empty one', () => {
    const voucher = voucherOf(renderVoucherRemovalImport({ companyName: 'Acme', action: 'Cancel', masterId: 41, date: '20261031', voucherTypeName: 'Sales & Returns', narration: 'void <dup>' }));
    expect([voucher['@_DATE'], voucher['@_TAGNAME'], voucher['@_TAGVALUE'], voucher['@_VCHTYPE'], voucher['@_ACTION']]).toEqual(['31-Oct-2026', 'Master ID', '41', 'Sales & Returns', 'Cancel']);
    expect(voucher.NARRATION).toBe('void <dup>');
    expect(voucherOf(renderVoucherRemovalImport({ companyName: 'Acme', action: 'Cancel', masterId: 41, date: '2026-10-31', voucherTypeName: 'Sales' })).NARRATION).toBe('Cancelled');
  });

  it('writes the DATE attribute as d-Mmm-yyyy and refuses what is not a date or a master id', () => {
    expect([tagDate('2026-01-01'), tagDate('20251231')]).toEqual(['1-Jan-2026', '31-Dec-2025']);
    expect(() => tagDate('2026-13-01')).toThrow(/not a date/);
    expect(() => renderVoucherRemovalImport({ companyName: 'Acme', action: 'Delete', masterId: 0, date: '2026-04-02', voucherTypeName: 'Journal' })).toThrow(/master id/);
  });

  // books-xml.md §2.3 (P002 #16): a voucher the books cannot find is answered `Voucher does not exist!`.
  it('reads "Voucher does not exist!" as VOUCHER_NOT_FOUND', () => {
    const answer = parseImportResponse(
      '<RESPONSE><LINEERROR>Voucher does not exist!</LINEERROR><CREATED>0</CREATED><ALTERED>0</ALTERED><DELETED>0</DELETED><LASTVCHID>0</LASTVCHID><LASTMID>0</LASTMID><COMBINED>0</COMBINED><IGNORED>0</IGNORED><ERRORS>0</ERRORS><CANCELLED>0</CANCELLED><EXCEPTIONS>0</EXCEPTIONS></RESPONSE>',
    );
    expect(describeImportFailure(answer)).toMatchObject({ error_code: 'VOUCHER_NOT_FOUND', error_label: 'Voucher not found' });
  });
});

describe('readback of a live capture (lamemustafa/bridge unit_a_vouchers_wildcard_live.xml, TallyPrime 7.x)', () => {
  const vouchers = parseVoucherExport(sample('bridge/unit_a_vouchers_wildcard_live.xml'), { voucherTypes: TYPES });

  // The capture's receipts name the bank as PARTYLEDGERNAME and flag both lines ISPARTYLEDGER=Yes; bridge's
  // TALLY_PROTOCOL_REFERENCE_VOUCHER_WRITES.md §9.13 records the same on licensed 7.1 (Receipt and Payment).
  it("reports a receipt's customer, not the bank, as its party, and marks that line alone", () => {
    const receipt = vouchers.find((v) => v.voucher_kind === 'receipt' && v.ledger_entries.some((e) => e.ledger_name === 'Crescent Office Mart'));
    expect(receipt).toBeDefined();
    expect(receipt?.party_ledger).toBe('Crescent Office Mart');
    expect(receipt?.ledger_entries.filter((e) => e.is_party).map((e) => [e.ledger_name, e.is_debit])).toEqual([['Crescent Office Mart', false]]);
  });

  it("reports a payment's supplier, the debited line, as its party", () => {
    const payments = vouchers.filter((v) => v.voucher_kind === 'payment');
    expect(payments.length).toBeGreaterThan(0);
    for (const payment of payments) {
      const party = payment.ledger_entries.filter((e) => e.is_party);
      expect(party).toHaveLength(1);
      expect(party[0]?.is_debit).toBe(true);
      expect(payment.party_ledger).toBe(party[0]?.ledger_name);
    }
  });

  it('leaves the party of the other kinds as the books name it', () => {
    const sale = vouchers.find((v) => v.voucher_kind === 'sales');
    expect(sale?.party_ledger).toBe('Crescent Office Mart');
  });

  // bridge TALLY_PROTOCOL_REFERENCE_VOUCHER_WRITES.md §9.14 (licensed 7.1 Silver): after a cancel the readback showed
  // the same GUID, ISCANCELLED Yes and "one empty entry list, with no ledger and no amount".
  it('reads a cancelled voucher as cancelled, with no entries and no bills, whatever party it shows', () => {
    const xml =
      '<ENVELOPE><HEADER><VERSION>1</VERSION><STATUS>1</STATUS></HEADER><BODY><DATA><COLLECTION>' +
      '<VOUCHER REMOTEID="c0ffee00-0000-0000-0000-000000000000-00000005" VCHTYPE="Journal" ACTION="Create">' +
      '<DATE TYPE="Date">20260401</DATE><GUID TYPE="String">c0ffee00-0000-0000-0000-000000000000-00000005</GUID>' +
      '<VOUCHERTYPENAME TYPE="String">Journal</VOUCHERTYPENAME><VOUCHERNUMBER TYPE="String">5</VOUCHERNUMBER>' +
      '<PARTYLEDGERNAME TYPE="String"></PARTYLEDGERNAME><ISCANCELLED TYPE="Logical">Yes</ISCANCELLED>' +
      '<ALTERID TYPE="Number"> 12</ALTERID><MASTERID TYPE="Number"> 5</MASTERID>' +
      '<ALLLEDGERENTRIES.LIST><LEDGERNAME TYPE="String"></LEDGERNAME><AMOUNT TYPE="Amount"></AMOUNT></ALLLEDGERENTRIES.LIST>' +
      '</VOUCHER></COLLECTION></DATA></BODY></ENVELOPE>';
    const [cancelled] = parseVoucherExport(xml, { voucherTypes: TYPES });
    expect(cancelled).toMatchObject({ is_cancelled: true, voucher_kind: 'journal', party_ledger: '', ledger_entries: [], bill_allocations: [], master_id: '5', alter_id: '12' });
  });
});
