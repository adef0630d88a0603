// The export requests the connector sends: well-formed XML, the collection named as the request ID,
// TDL formulae escaped, the company and period set, and nothing that can hang TallyPrime.
import { describe, expect, it } from 'vitest';
import {
  BOOKS_REQUEST_CONTENT_TYPE,
  companyListRequest,
  companyProbeRequest,
  decodeBooksResponse,
  encodeBooksRequest,
  MASTER_TYPES,
  masterGuidsRequest,
  mastersChangedRequest,
  objectExportRequest,
  parseBooksXml,
  voucherGuidsRequest,
  voucherLookupRequest,
  vouchersChangedRequest,
} from '../src/index.js';
import { sample, sampleBytes } from './helpers/tally-samples.js';

function parsed(xml: string): any {
  return parseBooksXml(xml).ENVELOPE;
}

function formulae(envelope: any): Record<string, string> {
  const systems = envelope.BODY.DESC.TDL.TDLMESSAGE.SYSTEM;
  return Object.fromEntries((Array.isArray(systems) ? systems : [systems]).map((s: any) => [s['@_NAME'], s['#text']]));
}

describe('export requests', () => {
  it('company list: every loaded company with its alteration high-water marks, no company set', () => {
    const envelope = parsed(companyListRequest());
    expect(envelope.HEADER).toMatchObject({ VERSION: '1', TALLYREQUEST: 'Export', TYPE: 'Collection', ID: 'LedgerwireCompanies' });
    const collection = envelope.BODY.DESC.TDL.TDLMESSAGE.COLLECTION;
    expect(collection['@_NAME']).toBe(envelope.HEADER.ID);
    expect(collection.TYPE).toBe('Company');
    expect(collection.FETCH).toContain('AltMstId');
    expect(collection.FETCH).toContain('AltVchId');
    expect(envelope.BODY.DESC.STATICVARIABLES.SVCURRENTCOMPANY).toBeUndefined();
  });

  it('company probe: the one company, its name escaped', () => {
    const xml = companyProbeRequest('Ram & Sons (2026)');
    expect(xml).toContain('<SVCURRENTCOMPANY>Ram &amp; Sons (2026)</SVCURRENTCOMPANY>');
    expect(formulae(parsed(xml))).toEqual({ LwIsThisCompany: '$$IsEqual:$Name:##SVCurrentCompany' });
  });

  it('masters changed since an alter id, for all nine types', () => {
    for (const type of MASTER_TYPES) {
      const envelope = parsed(mastersChangedRequest(type, { companyName: 'Acme', sinceAlterId: 120 }));
      const collection = envelope.BODY.DESC.TDL.TDLMESSAGE.COLLECTION;
      expect(collection['@_NAME']).toBe(envelope.HEADER.ID);
      expect(collection.FETCH).toMatch(/^Name, Guid, MasterId, AlterId, LanguageName\.\*/);
      expect(collection.FILTER).toBe('LwChanged');
      expect(formulae(envelope)).toEqual({ LwChanged: '$AlterID > 120' });
    }
    expect(parsed(mastersChangedRequest('ledger', { companyName: 'Acme' })).BODY.DESC.TDL.TDLMESSAGE.COLLECTION.FILTER).toBeUndefined();
    expect(() => mastersChangedRequest('ledger', { companyName: 'Acme', sinceAlterId: 1.5 })).toThrow();
    expect(parsed(masterGuidsRequest('stock_item', { companyName: 'Acme' })).BODY.DESC.TDL.TDLMESSAGE.COLLECTION.TYPE).toBe('StockItem');
  });

  it('vouchers in a window changed since an alter id: period set, window filtered again, `<`/`>` escaped on the wire', () => {
    const xml = vouchersChangedRequest({ companyName: 'Acme', fromDate: '2026-04-01', toDate: '2026-04-30', sinceAlterId: 7 });
    expect(xml).toContain('<SVFROMDATE TYPE="Date">20260401</SVFROMDATE><SVTODATE TYPE="Date">20260430</SVTODATE>');
    expect(xml).toContain('$Date &gt;= ##SVFromDate AND $Date &lt;= ##SVToDate');
    const envelope = parsed(xml);
    expect(envelope.BODY.DESC.TDL.TDLMESSAGE.COLLECTION.FETCH).toContain('AllLedgerEntries.*');
    expect(formulae(envelope)).toEqual({ LwInWindow: '$Date >= ##SVFromDate AND $Date <= ##SVToDate', LwChanged: '$AlterID > 7' });
    expect(() => vouchersChangedRequest({ companyName: 'Acme', fromDate: 'April', toDate: '2026-04-30' })).toThrow(/not a date/);
    expect(formulae(parsed(voucherGuidsRequest({ companyName: 'Acme', fromDate: '20260401', toDate: '20260430' })))).toEqual({
      LwInWindow: '$Date >= ##SVFromDate AND $Date <= ##SVToDate',
    });
  });

  it('voucher lookup by GUID, or by type and number, on the voucher date', () => {
    const envelope = parsed(voucherLookupRequest({ companyName: 'Acme', date: '2026-04-15', guid: 'g-1' }));
    expect(envelope.BODY.DESC.STATICVARIABLES.SVFROMDATE['#text']).toBe('20260415');
    expect(envelope.BODY.DESC.STATICVARIABLES.SVTODATE['#text']).toBe('20260415');
    expect(formulae(envelope).LwIsTheVoucher).toBe('$Guid = "g-1"');
    const byNumber = parsed(voucherLookupRequest({ companyName: 'Acme', date: '2026-04-15', voucherTypeName: 'Sales', voucherNumber: 'S/1' }));
    expect(formulae(byNumber).LwIsTheVoucher).toBe('$VoucherTypeName = "Sales" AND $VoucherNumber = "S/1"');
    expect(() => voucherLookupRequest({ companyName: 'Acme', date: '2026-04-15' })).toThrow();
    expect(() => voucherLookupRequest({ companyName: 'Acme', date: '2026-04-15', guid: 'a"b' })).toThrow();
  });

  it('object export by name', () => {
    const envelope = parsed(objectExportRequest({ companyName: 'Acme', subtype: 'Ledger', name: 'Ram & Sons' }));
    expect(envelope.HEADER).toMatchObject({ TYPE: 'Object', SUBTYPE: 'Ledger' });
    expect(envelope.HEADER.ID['#text']).toBe('Ram & Sons');
  });
});

describe('wire encoding', () => {
  it('sends UTF-16LE with a BOM and decodes it back, non-Latin intact', () => {
    const xml = '<ENVELOPE><NAME>नमस्ते & Café</NAME></ENVELOPE>';
    const bytes = encodeBooksRequest(xml);
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xfe]);
    expect(decodeBooksResponse(bytes)).toBe(xml);
    expect(BOOKS_REQUEST_CONTENT_TYPE).toBe('text/xml; charset=utf-16');
  });

  it('decodes the BOM-less UTF-16LE answer of the books, and UTF-8 answers', () => {
    const utf16 = sample('bridge/bills-utf16.bin');
    expect(utf16).toContain('एप्सिलॉन ट्रेडर्स');
    expect(utf16).toBe(sample('bridge/bills_receivable_validation_lab.xml').replace('???????? ????????', 'एप्सिलॉन ट्रेडर्स'));
    expect(sampleBytes('bridge/bills-utf16.bin')).toHaveLength(2340);
    expect(decodeBooksResponse(new TextEncoder().encode('<RESPONSE>Café</RESPONSE>'))).toBe('<RESPONSE>Café</RESPONSE>');
  });
});
