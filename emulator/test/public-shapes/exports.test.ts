// The issue-20 fidelity check, exports and silences half: the export requests public integrations send
// (collections with FETCH/FILTER/COMPUTE, built-in Data reports, Object, Function, legacy Export Data) and
// the requests TallyPrime answers with a modal dialog or a crash, against a demo emulator holding a few
// vouchers of April 2026. Every case names its source; emulator/evidence/exports-and-failures.md has the quotes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@ledgerwire/test-kit';
import { control, counters, postUtf16, postXml, startTestEmulator, type TestEmulator } from '../helpers.js';
import { accountingVoucher, billRef, exportEnvelope, item, legacy, line, xmlFormat } from './shapes.js';

let t: TestEmulator;
const send = (xml: string) => postXml(t.emulator.xmlUrl, xml);

/** What an integration's session would have booked first: a ledger made after the seed and one voucher of each kind. */
const BOOKED = [
  legacy('All Masters', '<LEDGER NAME="Mehta Exports" ACTION="Create"><NAME.LIST><NAME>Mehta Exports</NAME></NAME.LIST><PARENT>Sundry Debtors</PARENT></LEDGER>'),
  legacy('Vouchers', `<VOUCHER VCHTYPE="Sales" ACTION="Create" OBJVIEW="Invoice Voucher View"><DATE>20260420</DATE><VOUCHERTYPENAME>Sales</VOUCHERTYPENAME><PARTYLEDGERNAME>Ram &amp; Sons</PARTYLEDGERNAME>` +
    line('Ram &amp; Sons', '-236.00', billRef('WEB-9001', 'New Ref', '-236.00'), 'LEDGERENTRIES.LIST') + line('Output CGST', '18.00', '', 'LEDGERENTRIES.LIST') +
    line('Output SGST', '18.00', '', 'LEDGERENTRIES.LIST') + item('Widget 12mm', ' 2 Nos', '100.00/Nos', '200.00', 'Sales - Goods') + '</VOUCHER>'),
  legacy('Vouchers', accountingVoucher('Receipt', '20260421', line('HDFC Bank', '-10000.00') + line('Ram &amp; Sons', '10000.00', billRef('INV-1001', 'Agst Ref', '10000.00')))),
  legacy('Vouchers', accountingVoucher('Payment', '20260422', line('Office Rent', '-5000.00') + line('HDFC Bank', '5000.00'))),
  legacy('Vouchers', accountingVoucher('Journal', '20260423', line('Freight &amp; Cartage', '-300.00') + line('Cash', '300.00')) +
    accountingVoucher('Contra', '20260423', line('HDFC Bank', '-2000.00') + line('Cash', '2000.00'))),
  legacy('Vouchers', `<VOUCHER VCHTYPE="Purchase" ACTION="Create" OBJVIEW="Invoice Voucher View"><DATE>20260425</DATE><VOUCHERTYPENAME>Purchase</VOUCHERTYPENAME><PARTYLEDGERNAME>Northwind Suppliers</PARTYLEDGERNAME>` +
    line('Northwind Suppliers', '1000.00', '', 'LEDGERENTRIES.LIST') + item('Copper Wire', ' 2 Kgs', '500.00/Kgs', '-1000.00', 'Purchase - Goods', true) + '</VOUCHER>'),
];

beforeAll(async () => {
  t = await startTestEmulator('demo');
  for (const xml of BOOKED) {
    const answer = counters(await send(xml));
    if (answer.errors !== 0 || answer.exceptions !== 0) throw new Error(`setup import refused: ${JSON.stringify(answer)}`);
  }
});
afterAll(async () => t.close());

describe('exports', () => {
  it('tally-database-loader fetchTallyCompanyList: Company collection with COMPUTE IsActiveCompany lists every loaded company', async () => {
    const xml = exportEnvelope('Collection', 'CompanyList', xmlFormat + '<SVCURRENTCOMPANY>Somebody Else</SVCURRENTCOMPANY>',
      '<COLLECTION NAME="CompanyList"><TYPE>Company</TYPE><NATIVEMETHOD>Name</NATIVEMETHOD><NATIVEMETHOD>BooksFrom</NATIVEMETHOD><NATIVEMETHOD>AltVchId</NATIVEMETHOD><NATIVEMETHOD>Guid</NATIVEMETHOD><COMPUTE>IsActiveCompany : $$IsEqual:$Name:##SVCurrentCompany</COMPUTE></COLLECTION>');
    const answer = await send(xml);
    expect(answer).toContain('<COMPANY NAME="Ledgerwire Demo Traders"');
    expect(answer).toContain('<COMPANY NAME="Ledgerwire Demo Services"');
  });

  it('tally-database-loader incremental sync: Ledger collection FILTER `$AlterID > n` answers only the newer ledgers (bridge §10.1)', async () => {
    const xml = exportEnvelope('Collection', 'NewLedgers', xmlFormat,
      '<COLLECTION NAME="NewLedgers"><TYPE>Ledger</TYPE><FETCH>Name, Parent, AlterID, Guid</FETCH><FILTER>Newer</FILTER></COLLECTION><SYSTEM TYPE="Formulae" NAME="Newer">$AlterID &gt; 40</SYSTEM>');
    const answer = await send(xml);
    expect(answer).toContain('<LEDGER NAME="Mehta Exports"');
    expect(answer).not.toContain('<LEDGER NAME="Cash"');
  });

  it('bridge §3: SVFROMDATE/SVTODATE written `1-Apr-2026` (no TYPE) bound a Voucher collection as the typed YYYYMMDD form does', async () => {
    const tdl = '<COLLECTION NAME="Window"><TYPE>Voucher</TYPE><FETCH>Date, VoucherTypeName</FETCH></COLLECTION>';
    const typed = await send(exportEnvelope('Collection', 'Window', xmlFormat + '<SVFROMDATE TYPE="Date">20260420</SVFROMDATE><SVTODATE TYPE="Date">20260421</SVTODATE>', tdl));
    const text = await send(exportEnvelope('Collection', 'Window', xmlFormat + '<SVFROMDATE>20-Apr-2026</SVFROMDATE><SVTODATE>21-Apr-2026</SVTODATE>', tdl));
    expect(text).toBe(typed);
    expect((typed.match(/<VOUCHER /g) ?? []).length).toBe(2);
  });

  it('tally_agent probe harness: CHILDOF $$VchTypeAllVouchers lists vouchers of every type', async () => {
    const answer = await send(exportEnvelope('Collection', 'AllV', xmlFormat + '<SVFROMDATE TYPE="Date">20260401</SVFROMDATE><SVTODATE TYPE="Date">20260430</SVTODATE>',
      '<COLLECTION NAME="AllV"><TYPE>Voucher</TYPE><CHILDOF>$$VchTypeAllVouchers</CHILDOF><FETCH>MasterId, VoucherTypeName</FETCH></COLLECTION>'));
    for (const type of ['Sales', 'Receipt', 'Payment', 'Journal', 'Contra', 'Purchase']) expect(answer).toContain(`>${type}</VOUCHERTYPENAME>`);
  });

  it('bridge native_outstandings request.rs: `List of Ledgers` with ISMODIFY="Yes" and no TYPE → ledgers with LANGUAGENAME.LIST', async () => {
    const answer = await send(exportEnvelope('Collection', 'List of Ledgers', xmlFormat + '<SVTODATE TYPE="Date">20260430</SVTODATE>',
      '<COLLECTION NAME="List of Ledgers" ISMODIFY="Yes"><FETCH>Parent, ClosingBalance, IsBillWiseOn</FETCH></COLLECTION>'));
    expect(answer).toMatch(/<LEDGER NAME="Ram &amp; Sons"[^>]*>[\s\S]*?<LANGUAGENAME.LIST>/);
  });

  it('Tally help "Case Study I": Trial Balance with EXPLODEFLAG and no company → DSPACCNAME/DSPACCINFO rows of the active company', async () => {
    const answer = await send(exportEnvelope('Data', 'Trial Balance', '<EXPLODEFLAG>Yes</EXPLODEFLAG>' + xmlFormat));
    expect(answer.startsWith('<ENVELOPE>')).toBe(true);
    expect(answer).toMatch(/<DSPACCNAME>\r\n {2}<DSPDISPNAME>Current Assets<\/DSPDISPNAME>\r\n<\/DSPACCNAME>\r\n <DSPACCINFO>/);
  });

  it('Tally-MCP balance-sheet fixture: Balance Sheet → BSNAME/BSAMT pairs', async () => {
    expect(await send(exportEnvelope('Data', 'Balance Sheet', xmlFormat))).toMatch(/<BSNAME>[\s\S]*<BSAMT>/);
  });

  it('Tally-MCP profit-loss fixture: Profit and Loss → DSPACCNAME with PLAMT', async () => {
    expect(await send(exportEnvelope('Data', 'Profit and Loss', xmlFormat + '<SVTODATE TYPE="Date">20260430</SVTODATE>'))).toMatch(/<DSPACCNAME>[\s\S]*<PLAMT>/);
  });

  it('Tally-MCP day-book fixture / P002 #11: Day Book → import-shaped VOUCHERs in TALLYMESSAGEs', async () => {
    const answer = await send(exportEnvelope('Data', 'Day Book', xmlFormat + '<SVFROMDATE TYPE="Date">20260420</SVFROMDATE><SVTODATE TYPE="Date">20260420</SVTODATE>'));
    expect(answer).toMatch(/<TALLYMESSAGE[^>]*>\r\n *<VOUCHER REMOTEID="[^"]+" VCHKEY="[^"]+" VCHTYPE="Sales" ACTION="Create"/);
  });

  it('public Ledger Vouchers clients: Ledger Vouchers with LEDGERNAME → DSPVCHDATE rows', async () => {
    const answer = await send(exportEnvelope('Data', 'Ledger Vouchers', xmlFormat + '<LEDGERNAME>Office Rent</LEDGERNAME><SVFROMDATE TYPE="Date">20260401</SVFROMDATE><SVTODATE TYPE="Date">20260430</SVTODATE>'));
    expect(answer).toContain('<DSPVCHDATE>22-Apr-26</DSPVCHDATE>');
  });

  it('TallyConnector issue #40 / Tally-MCP report-id-verification: `DayBook` is no report → STATUS 0, `Could not find Report`', async () => {
    const answer = await send(exportEnvelope('Data', 'DayBook', xmlFormat));
    expect(answer).toMatch(/<STATUS>0<\/STATUS>/);
    expect(answer).toContain("<LINEERROR>Could not find Report &apos;DayBook&apos;!</LINEERROR>");
  });

  it('bridge §9.11a / tally_agent LESSONS §13: Object export SUBTYPE Ledger, ID TYPE="Name", FETCHLIST → the ledger with its GUID', async () => {
    const xml = '<ENVELOPE><HEADER><VERSION>1</VERSION><TALLYREQUEST>Export</TALLYREQUEST><TYPE>Object</TYPE><SUBTYPE>Ledger</SUBTYPE><ID TYPE="Name">HDFC Bank</ID></HEADER>' +
      `<BODY><DESC><STATICVARIABLES>${xmlFormat}</STATICVARIABLES><FETCHLIST><FETCH>Name</FETCH><FETCH>Guid</FETCH><FETCH>Parent</FETCH></FETCHLIST></DESC></BODY></ENVELOPE>`;
    const answer = await send(xml);
    expect(answer).toMatch(/<LEDGER NAME="HDFC Bank"[\s\S]*<GUID[^>]*>[0-9a-f-]+<\/GUID>/);
  });

  it('tally-database-loader fetchTallyCompanyDefaultPeriod: Function $$SystemPeriodFrom → RESULT with TYPE Date', async () => {
    const answer = await send(exportEnvelope('Function', '$$SystemPeriodFrom', xmlFormat));
    expect(answer).toMatch(/<RESULT TYPE="Date"[^>]*>1-Apr-2026<\/RESULT>/);
  });

  it('legacy `Export Data` List of Accounts (Tally help, ERP 9 samples) → masters in TALLYMESSAGEs', async () => {
    const xml = '<ENVELOPE><HEADER><TALLYREQUEST>Export Data</TALLYREQUEST></HEADER><BODY><EXPORTDATA><REQUESTDESC><REPORTNAME>List of Accounts</REPORTNAME>' +
      `<STATICVARIABLES>${xmlFormat}<ACCOUNTTYPE>Ledgers</ACCOUNTTYPE></STATICVARIABLES></REQUESTDESC></EXPORTDATA></BODY></ENVELOPE>`;
    expect(await send(xml)).toMatch(/<TALLYMESSAGE[^>]*>\r\n *<LEDGER NAME="/);
  });

  it('SVEXPORTFORMAT written `XML (Data Interchange)` (tally-database-loader notes) answers as `$$SysName:XML`', async () => {
    const tdl = '<COLLECTION NAME="Cur"><TYPE>Currency</TYPE><FETCH>Name</FETCH></COLLECTION>';
    const a = await send(exportEnvelope('Collection', 'Cur', '<SVEXPORTFORMAT>XML (Data Interchange)</SVEXPORTFORMAT>', tdl));
    expect(a).toBe(await send(exportEnvelope('Collection', 'Cur', xmlFormat, tdl)));
  });

  it('bridge §9.11 / Tally-MCP probe-findings §10: a collection for an unknown SVCURRENTCOMPANY → STATUS 1, zero rows', async () => {
    const answer = await send(exportEnvelope('Collection', 'L', xmlFormat + '<SVCURRENTCOMPANY>Ghost Co</SVCURRENTCOMPANY>', '<COLLECTION NAME="L"><TYPE>Ledger</TYPE><FETCH>Name</FETCH></COLLECTION>'));
    expect(answer).toMatch(/<STATUS>1<\/STATUS>/);
    expect(answer).not.toContain('<LEDGER ');
  });
});

describe('silences', () => {
  it('bridge IMPLEMENTATION_GUIDE §5.3a / Tally-MCP probe-findings §1: a collection of an unknown TYPE gets no answer until the dialog is dismissed', async () => {
    const controller = new AbortController();
    const pending = fetch(t.emulator.xmlUrl, { method: 'POST', body: exportEnvelope('Collection', 'Edits', xmlFormat, '<COLLECTION NAME="Edits"><TYPE>EditLog</TYPE><FETCH>*</FETCH></COLLECTION>'), signal: controller.signal })
      .then(() => 'answered', () => 'no answer');
    await eventually('(await control(t.emulator, \'GET\', \'/status\', 200)).dialog?.text ?? null toContain \'Incorrect Object Type\'', async () => {
      expect(await (await control(t.emulator, 'GET', '/status', 200)).dialog?.text ?? null).toContain('Incorrect Object Type');
      return true;
    }, { timeoutMs: 1_000, intervalMs: 50 });
    controller.abort();
    expect(await pending).toBe('no answer');
    await control(t.emulator, 'POST', '/faults/clear', 200);
  });

  it('tally_agent v4 "Crash signature isolation": <UNIT NAME="…" ACTION="Delete"> drops the connection and stops the books', async () => {
    await expect(send(legacy('All Masters', '<UNIT NAME="Pcs" ACTION="Delete"><NAME>Pcs</NAME></UNIT>'))).rejects.toThrow();
    await expect(fetch(t.emulator.xmlUrl)).rejects.toThrow();
    await control(t.emulator, 'POST', '/books/start', 200);
    expect(await (await fetch(t.emulator.xmlUrl)).text()).toContain('TallyPrime Server is Running');
    expect(await postUtf16(t.emulator.xmlUrl, exportEnvelope('Function', '$$CurrentSimpleCompany', xmlFormat))).toContain('Ledgerwire Demo Traders');
  });
});

