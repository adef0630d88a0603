// Collection, Object and Data exports: FETCH, FILTER formulae, periods, SVCURRENTCOMPANY, formats.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionRequest, control, entry, importData, postXml, startTestEmulator, voucher, type TestEmulator } from './helpers.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator('demo');
  const objects = [
    voucher('Payment', entry('Office Rent', '-100.00') + entry('HDFC Bank', '100.00'), { date: '20260410' }),
    voucher('Receipt', entry('HDFC Bank', '-250.50') + entry('Walk-in Customer', '250.50'), { date: '20260520' }),
    voucher('Journal', entry('Freight &amp; Cartage', '-75.00') + entry('Cash', '75.00'), { date: '20270105' }),
  ];
  await postXml(t.emulator.xmlUrl, importData(objects.join('')));
  await postXml(t.emulator.xmlUrl, importData(`<VOUCHER DATE="5-Jan-2027" TAGNAME="VoucherNumber" TAGVALUE="1" VCHTYPE="Journal" ACTION="Cancel"><NARRATION>x</NARRATION></VOUCHER>`));
});
afterAll(async () => t.close());

const exportXml = (xml: string) => postXml(t.emulator.xmlUrl, xml);
const count = (text: string, tag: string) => (text.match(new RegExp(`<${tag} `, 'g')) ?? []).length;

describe('collection exports', () => {
  it('Company collection: every loaded company with NAME, GUID, dates, AltMstId/AltVchId in TallyPrime formats', async () => {
    const text = await exportXml(collectionRequest('Cmp', 'Company', 'Name, BooksFrom, StartingFrom, EndingAt, LastVoucherDate, AltMstId, AltVchId, Guid', { extra: '<COMPUTE>IsActiveCompany : $$IsEqual:$Name:##SVCurrentCompany</COMPUTE>' }));
    expect(text.startsWith('<ENVELOPE>\r\n <HEADER>\r\n  <VERSION>1</VERSION>\r\n  <STATUS>1</STATUS>')).toBe(true);
    expect(count(text, 'COMPANY')).toBe(2);
    expect(text).toContain('<BOOKSFROM TYPE="Date">20250401</BOOKSFROM>');
    expect(text).toMatch(/<ALTVCHID TYPE="Number"> \d+<\/ALTVCHID>/);
    expect(text).toContain('<LASTVOUCHERDATE TYPE="Date">20270105</LASTVOUCHERDATE>');
    expect(text).toContain('<ISACTIVECOMPANY TYPE="Logical">Yes</ISACTIVECOMPANY>');
    expect(text).toContain('<ISACTIVECOMPANY TYPE="Logical">No</ISACTIVECOMPANY>');
  });

  it('SVCURRENTCOMPANY: case and spaces tolerated; unknown gives zero rows with STATUS 1; omitted uses the active company', async () => {
    const ledgers = (company?: string) => exportXml(collectionRequest('L', 'Ledger', 'Name', { company }));
    const active = await ledgers();
    expect(count(await ledgers('  ledgerwire   DEMO traders '), 'LEDGER')).toBe(count(active, 'LEDGER'));
    expect(count(active, 'LEDGER')).toBeGreaterThan(10);
    const unknown = await ledgers('No Such Company');
    expect(unknown).toContain('<STATUS>1</STATUS>');
    expect(count(unknown, 'LEDGER')).toBe(0);
    expect(count(await ledgers('Ledgerwire Demo Services'), 'LEDGER')).toBe(6);
  });

  it('FILTER with $AlterID > n, and the AltMstId probe', async () => {
    const formula = (n: number) => `<SYSTEM TYPE="Formulae" NAME="Changed">$AlterID &gt; ${n}</SYSTEM>`;
    const all = await exportXml(collectionRequest('L', 'Ledger', 'Name, AlterID', { filters: 'Changed', formulae: formula(0) }));
    const ids = [...all.matchAll(/<ALTERID TYPE="Number"> (\d+)<\/ALTERID>/g)].map((m) => Number(m[1]));
    const cut = ids.sort((a, b) => a - b)[ids.length - 3]!;
    const recent = await exportXml(collectionRequest('L', 'Ledger', 'Name, AlterID', { filters: 'Changed', formulae: formula(cut) }));
    expect(count(recent, 'LEDGER')).toBe(2);
  });

  it('Voucher collection: the loaded period without dates, SVFROMDATE/SVTODATE windows, NOT $IsCancelled, dotted FETCH', async () => {
    const fetch = 'Date, VoucherTypeName, VoucherNumber, IsCancelled, AllLedgerEntries.LedgerName, AllLedgerEntries.Amount';
    const period = await exportXml(collectionRequest('V', 'Voucher', fetch));
    expect(count(period, 'VOUCHER')).toBe(3);
    expect(period).toContain('<COLLECTION ISCMPDEPTYPE="Yes" CMPLOCUS="4" CMPDEPTYPE="64">');
    const window = await exportXml(collectionRequest('V', 'Voucher', fetch, { from: '20260401', to: '20260430' }));
    expect(count(window, 'VOUCHER')).toBe(1);
    expect(window).toContain('<DATE TYPE="Date">20260410</DATE>');
    expect(window).toContain('<LEDGERNAME TYPE="String">Office Rent</LEDGERNAME>');
    expect(window).toContain('<AMOUNT TYPE="Amount">-100.00</AMOUNT>');
    expect(window).not.toContain('ISDEEMEDPOSITIVE');
    const formulae = '<SYSTEM TYPE="Formulae" NAME="Win">$Date &gt;= ##SVFromDate AND $Date &lt;= ##SVToDate</SYSTEM><SYSTEM TYPE="Formulae" NAME="NotCanc">NOT $IsCancelled</SYSTEM>';
    const live = await exportXml(collectionRequest('V', 'Voucher', fetch, { from: '20260401', to: '20270331', filters: 'Win,NotCanc', formulae }));
    expect(count(live, 'VOUCHER')).toBe(2);
    const wide = await exportXml(collectionRequest('V', 'Voucher', 'AllLedgerEntries.*, AllLedgerEntries.BillAllocations.Name', { from: '20260520', to: '20260520' }));
    expect(wide).toContain('<ISDEEMEDPOSITIVE>Yes</ISDEEMEDPOSITIVE>');
  });

  it('* fetches the whole object with TYPE attributes on top-level fields; system values carry &#4;', async () => {
    const text = await exportXml(collectionRequest('G', 'Group', '*', { filters: 'Top', formulae: '<SYSTEM TYPE="Formulae" NAME="Top">$Name = "Capital Account"</SYSTEM>' }));
    expect(text).toContain('<GROUP NAME="Capital Account" RESERVEDNAME="Capital Account">');
    expect(text).toContain('<PARENT TYPE="String">&#4; Primary</PARENT>');
    expect(text).toMatch(/<MASTERID TYPE="Number"> \d+<\/MASTERID>/);
    expect(text).toContain('<COLLECTION ISMSTDEPTYPE="Yes" MSTDEPTYPE="4">');
  });

  it('stock items in quantity and rate formats; ledgers with signed lifetime closing balances', async () => {
    const items = await exportXml(collectionRequest('S', 'StockItem', 'Name, BaseUnits, OpeningBalance, ClosingBalance, ClosingRate', {}));
    expect(items).toContain('<OPENINGBALANCE TYPE="Quantity"> 100 Nos</OPENINGBALANCE>');
    expect(items).toContain('<CLOSINGRATE TYPE="Rate">50.00/Nos</CLOSINGRATE>');
    const ledgers = await exportXml(collectionRequest('L', 'Ledger', 'Parent, IsBillWiseOn, ClosingBalance', { filters: 'Bank', formulae: '<SYSTEM TYPE="Formulae" NAME="Bank">$Name = "HDFC Bank"</SYSTEM>' }));
    expect(ledgers).toContain('<CLOSINGBALANCE TYPE="Amount">-250150.50</CLOSINGBALANCE>');
    expect(ledgers).toContain('<ISBILLWISEON TYPE="Logical">No</ISBILLWISEON>');
  });

  it('TDL the emulator does not support answers STATUS 0 + LINEERROR (TDL TallyPrime rejects is in failure-modes.test.ts)', async () => {
    const badFunction = await exportXml(collectionRequest('X', 'Ledger', 'Name', { filters: 'F', formulae: '<SYSTEM TYPE="Formulae" NAME="F">$$IsSales:$Name</SYSTEM>' }));
    expect(badFunction).toContain('<STATUS>0</STATUS>');
    const walk = await exportXml(collectionRequest('X', 'Voucher', 'Date', { extra: '<WALK>AllLedgerEntries</WALK>' }));
    expect(walk).toContain('<STATUS>0</STATUS>');
    expect(walk).toContain('not supported by the emulator');
    // A TallyPrime object type the emulator does not keep (named in every CMPINFO block) is answered, not a dialog.
    const budgets = await exportXml(collectionRequest('X', 'Budget', 'Name'));
    expect(budgets).toContain("<LINEERROR>Error in TDL: collection TYPE &apos;Budget&apos; is not supported by the emulator</LINEERROR>");
  });
});

describe('object and data exports', () => {
  const data = (id: string, sv = '') =>
    `<ENVELOPE><HEADER><VERSION>1</VERSION><TALLYREQUEST>Export</TALLYREQUEST><TYPE>Data</TYPE><ID>${id}</ID></HEADER><BODY><DESC><STATICVARIABLES><SVEXPORTFORMAT>$$SysName:XML</SVEXPORTFORMAT>${sv}</STATICVARIABLES></DESC></BODY></ENVELOPE>`;

  it('Day Book: vouchers of the period as import-compatible TALLYMESSAGEs with ACTION="Create", then the company block', async () => {
    const text = await exportXml(data('Day Book', '<SVFROMDATE TYPE="Date">20260401</SVFROMDATE><SVTODATE TYPE="Date">20260630</SVTODATE>'));
    expect(count(text, 'VOUCHER')).toBe(2);
    expect(text).toMatch(/<TALLYMESSAGE xmlns:UDF="TallyUDF">\r\n {4}<VOUCHER REMOTEID="[^"]+" VCHKEY="[^"]+" VCHTYPE="Payment" ACTION="Create" OBJVIEW="Accounting Voucher View">/);
    expect(text).toContain('<REMOTECMPINFO.LIST MERGE="Yes">');
  });

  it('Day Book re-imports into another company as the same vouchers', async () => {
    const text = await exportXml(data('Day Book', '<SVFROMDATE>1-Apr-2026</SVFROMDATE><SVTODATE>30-Apr-2026</SVTODATE>'));
    const body = text.slice(text.indexOf('<TALLYMESSAGE'), text.lastIndexOf('<TALLYMESSAGE'));
    const again = await postXml(t.emulator.xmlUrl, `<ENVELOPE><HEADER><TALLYREQUEST>Import Data</TALLYREQUEST></HEADER><BODY><IMPORTDATA><REQUESTDESC><REPORTNAME>Vouchers</REPORTNAME></REQUESTDESC><REQUESTDATA>${body}</REQUESTDATA></IMPORTDATA></BODY></ENVELOPE>`);
    expect(again).toContain('<CREATED>1</CREATED>');
  });

  it('List of Accounts exports the accounting masters; unknown report and unknown company fail with STATUS 0', async () => {
    const text = await exportXml(data('List of Accounts'));
    expect(text).toContain('<LEDGER NAME="Profit &amp; Loss A/c" RESERVEDNAME="Profit &amp; Loss A/c">');
    expect(count(text, 'GROUP')).toBe(28);
    expect(await exportXml(data('DayBook'))).toContain('<LINEERROR>Could not find Report &apos;DayBook&apos;!</LINEERROR>');
    const unknown = await exportXml(data('Day Book', '<SVCURRENTCOMPANY>Bridge Ageing Lab</SVCURRENTCOMPANY>'));
    expect(unknown).toBe('<ENVELOPE>\r\n <HEADER>\r\n  <VERSION>1</VERSION>\r\n  <STATUS>0</STATUS>\r\n </HEADER>\r\n <BODY>\r\n  <DATA>\r\n   <LINEERROR>Could not set &apos;SVCurrentCompany&apos; to &apos;Bridge Ageing Lab&apos;</LINEERROR>\r\n  </DATA>\r\n </BODY>\r\n</ENVELOPE>\r\n');
  });

  it('an import to an unknown company answers Could not set SVCurrentCompany', async () => {
    const text = await postXml(t.emulator.xmlUrl, importData(voucher('Payment', entry('Cash', '-1.00') + entry('HDFC Bank', '1.00')), 'Nowhere Ltd'));
    expect(text).toContain('<LINEERROR>Could not set &apos;SVCurrentCompany&apos; to &apos;Nowhere Ltd&apos;</LINEERROR><CREATED>0</CREATED>');
  });

  it('Object export of a ledger and of a company, with FETCHLIST', async () => {
    const object = (subtype: string, id: string, fetch: string) =>
      `<ENVELOPE><HEADER><VERSION>1</VERSION><TALLYREQUEST>Export</TALLYREQUEST><TYPE>Object</TYPE><SUBTYPE>${subtype}</SUBTYPE><ID TYPE="Name">${id}</ID></HEADER><BODY><DESC><STATICVARIABLES><SVEXPORTFORMAT>$$SysName:XML</SVEXPORTFORMAT></STATICVARIABLES><FETCHLIST><FETCH>${fetch}</FETCH></FETCHLIST></DESC></BODY></ENVELOPE>`;
    const ledger = await exportXml(object('Ledger', 'Ram &amp; Sons', '*'));
    expect(ledger).toContain('<LEDGER NAME="Ram &amp; Sons" RESERVEDNAME="">');
    expect(ledger).toContain('<PARTYGSTIN TYPE="String">29AAACR1234A1Z5</PARTYGSTIN>');
    const company = await exportXml(object('Company', 'Ledgerwire Demo Traders', 'Guid, Name'));
    const [demo] = await control(t.emulator, 'GET', '/companies', 200);
    expect(company).toContain(`<GUID TYPE="String">${demo.guid}</GUID>`);
    expect(await exportXml(object('Ledger', 'Nobody', '*'))).toContain('<STATUS>0</STATUS>');
  });
});
