// The issue-20 fidelity check, imports half: request shapes that public integrations send to a live
// TallyPrime (rewritten in our own formatting), each answered by a fresh demo emulator over real HTTP and
// compared with what the public evidence records. Every case names its source; emulator/evidence/*.md
// carries the quotes and confidence. Cases run in order on one emulator: later ones use what earlier ones
// booked, the way an integration's session would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control, counters, postXml, startTestEmulator, type TestEmulator } from '../helpers.js';
import { accountingVoucher, billRef, created, exportEnvelope, item, legacy, line, version1, xmlFormat } from './shapes.js';

let t: TestEmulator;
let guid = '';
beforeAll(async () => {
  t = await startTestEmulator('demo');
  guid = (await control(t.emulator, 'GET', '/companies', 200))[0].guid;
});
afterAll(async () => t.close());

const send = (xml: string) => postXml(t.emulator.xmlUrl, xml);
const importCounters = async (xml: string) => counters(await send(xml));
const vouchers = async (): Promise<any[]> => control(t.emulator, 'GET', `/companies/${guid}/vouchers`, 200);
const masters = async (type: string): Promise<any[]> => control(t.emulator, 'GET', `/companies/${guid}/masters?type=${type}`, 200);

describe('transport and envelopes', () => {
  it('srinidhi-bs HTTP_XML_GATEWAY_LEARNINGS.md: GET / answers the banner', async () => {
    const response = await fetch(t.emulator.xmlUrl);
    expect(await response.text()).toBe('<RESPONSE>TallyPrime Server is Running</RESPONSE>\r\n');
  });

  it('srinidhi-bs: a Sales voucher without OBJVIEW or static variables, party +1180/Yes, income and taxes negative/No → CREATED=1, LASTVCHID set', async () => {
    const sale = `<VOUCHER VCHTYPE="Sales" ACTION="Create"><DATE>20260415</DATE><VOUCHERTYPENAME>Sales</VOUCHERTYPENAME><VOUCHERNUMBER>ISPL/2026/002</VOUCHERNUMBER>` +
      `<NARRATION>Sales Invoice</NARRATION>` +
      `<ALLLEDGERENTRIES.LIST><LEDGERNAME>Walk-in Customer</LEDGERNAME><ISDEEMEDPOSITIVE>Yes</ISDEEMEDPOSITIVE><AMOUNT>1180.0</AMOUNT></ALLLEDGERENTRIES.LIST>` +
      `<ALLLEDGERENTRIES.LIST><LEDGERNAME>Sales - Services</LEDGERNAME><ISDEEMEDPOSITIVE>No</ISDEEMEDPOSITIVE><AMOUNT>-1000.0</AMOUNT></ALLLEDGERENTRIES.LIST>` +
      `<ALLLEDGERENTRIES.LIST><LEDGERNAME>Output CGST</LEDGERNAME><ISDEEMEDPOSITIVE>No</ISDEEMEDPOSITIVE><AMOUNT>-90.0</AMOUNT></ALLLEDGERENTRIES.LIST>` +
      `<ALLLEDGERENTRIES.LIST><LEDGERNAME>Output SGST</LEDGERNAME><ISDEEMEDPOSITIVE>No</ISDEEMEDPOSITIVE><AMOUNT>-90.0</AMOUNT></ALLLEDGERENTRIES.LIST></VOUCHER>`;
    const answer = await importCounters(legacy('Vouchers', sale));
    expect(answer).toMatchObject(created);
    expect(answer.lastvchid).toBeGreaterThan(0);
  });

  it('an XML declaration with encoding="utf-8" ahead of the envelope (tally-database-loader and tally-mcp-server request files) is accepted', async () => {
    const answer = await importCounters(`<?xml version="1.0" encoding="utf-8"?>\r\n${legacy('All Masters', '<LEDGER NAME="Decl Ledger" ACTION="Create"><NAME.LIST><NAME>Decl Ledger</NAME></NAME.LIST><PARENT>Indirect Expenses</PARENT></LEDGER>')}`);
    expect(answer).toMatchObject(created);
  });

  it('UTF-16LE with BOM and charset=utf-16 (tally-database-loader, TallyConnector): the answer is UTF-16LE without BOM; Unicode kept', async () => {
    const body = exportEnvelope('Collection', 'Cos', xmlFormat, '<COLLECTION NAME="Cos"><TYPE>Currency</TYPE><FETCH>Name</FETCH></COLLECTION>');
    const response = await fetch(t.emulator.xmlUrl, { method: 'POST', body: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(body, 'utf16le')]), headers: { 'Content-Type': 'text/xml;charset=utf-16' } });
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes[0]).toBe('<'.charCodeAt(0));
    expect(bytes[1]).toBe(0);
    expect(bytes.toString('utf16le')).toContain('<CURRENCY NAME="₹"');
  });

  it('lamemustafa/bridge TALLY_PROTOCOL_REFERENCE §1.2: UTF-16 bytes without the charset header → Unknown Request', async () => {
    const body = exportEnvelope('Collection', 'Cos', xmlFormat, '<COLLECTION NAME="Cos"><TYPE>Currency</TYPE><FETCH>Name</FETCH></COLLECTION>');
    const response = await fetch(t.emulator.xmlUrl, { method: 'POST', body: Buffer.from(body, 'utf16le'), headers: { 'Content-Type': 'text/xml' } });
    expect(await response.text()).toBe('<RESPONSE>Unknown Request, cannot be processed</RESPONSE>\r\n');
  });

  it('bridge §9.1a: a raw & in a value (`Duties & Taxes`) → Unknown Request, nothing imported', async () => {
    const raw = legacy('All Masters', '<LEDGER NAME="GST Payable" ACTION="Create"><NAME>GST Payable</NAME><PARENT>Duties & Taxes</PARENT></LEDGER>');
    expect(await send(raw)).toBe('<RESPONSE>Unknown Request, cannot be processed</RESPONSE>\r\n');
    expect((await masters('ledger')).some((m) => m.name === 'GST Payable')).toBe(false);
  });

  it('TallyConnector RequestEnvelope: upper-case VERSION 1 verbs (IMPORT / DATA) with DESC + DATA answer ENVELOPE/HEADER/STATUS + IMPORTRESULT', async () => {
    const xml = version1('<LEDGER NAME="Upper Case Co" ACTION="Create"><NAME.LIST TYPE="String"><NAME>Upper Case Co</NAME></NAME.LIST><PARENT>Sundry Creditors</PARENT></LEDGER>')
      .replace('<TALLYREQUEST>Import</TALLYREQUEST><TYPE>Data</TYPE>', '<TALLYREQUEST>IMPORT</TALLYREQUEST><TYPE>DATA</TYPE>');
    const answer = await send(xml);
    expect(answer).toMatch(/<STATUS>1<\/STATUS>/);
    expect(answer).toMatch(/<IMPORTRESULT>[\s\S]*<CREATED>1<\/CREATED>/);
  });

  it('P002 #25 / bridge §9.11: SVCURRENTCOMPANY naming no loaded company → Could not set, nothing imported', async () => {
    const answer = await importCounters(legacy('All Masters', '<LEDGER NAME="Nowhere" ACTION="Create"><NAME>Nowhere</NAME><PARENT>Cash-in-Hand</PARENT></LEDGER>', '<SVCURRENTCOMPANY>No Such Co</SVCURRENTCOMPANY>'));
    expect(answer).toMatchObject({ created: 0, lineErrors: ['Could not set &apos;SVCurrentCompany&apos; to &apos;No Such Co&apos;'] });
  });

  it('TallyConnector TallyAbstractClient: SVIMPBEHAVIOUREXCP "Stop Import at First Exception" stops at the first refusal', async () => {
    const objects = accountingVoucher('Payment', '20260415', line('Nope Ledger', '-1.00') + line('Cash', '1.00')) +
      accountingVoucher('Payment', '20260415', line('Office Rent', '-1.00') + line('Cash', '1.00'));
    const answer = await importCounters(version1(objects, '<SVIMPBEHAVIOUREXCP>Stop Import at First Exception</SVIMPBEHAVIOUREXCP>'));
    expect(answer).toMatchObject({ created: 0, exceptions: 1 });
  });
});

describe('envelope mixes no source records (the emulator\'s guess, emulator/evidence/imports.md)', () => {
  it('a VERSION 1 `Import` header over a legacy IMPORTDATA body imports nothing: STATUS 1, all counters 0', async () => {
    const mixed = legacy('Vouchers', accountingVoucher('Payment', '20260415', line('Office Rent', '-1.00') + line('Cash', '1.00')))
      .replace('<TALLYREQUEST>Import Data</TALLYREQUEST>', '<VERSION>1</VERSION><TALLYREQUEST>Import</TALLYREQUEST><TYPE>Data</TYPE><ID>Vouchers</ID>');
    const answer = await send(mixed);
    expect(answer).toMatch(/<STATUS>1<\/STATUS>/);
    expect(counters(answer)).toMatchObject({ created: 0, errors: 0, exceptions: 0 });
  });
});

describe('masters of every type', () => {
  it('tally_agent tally-write-exploration.md Format B: LEDGER with a bare NAME.LIST → CREATED=1, LASTMID stays 0', async () => {
    const answer = await importCounters(legacy('All Masters', '<LEDGER NAME="Probe Vendor" ACTION="Create"><NAME.LIST><NAME>Probe Vendor</NAME><NAME>PV</NAME></NAME.LIST><PARENT>Sundry Creditors</PARENT><ISBILLWISEON>Yes</ISBILLWISEON></LEDGER>'));
    expect(answer).toMatchObject({ ...created, lastmid: 0 });
  });

  it('tally-mcp-server master-ledger template: LANGUAGENAME.LIST, dated mailing and GST registration lists, PAN → CREATED=1 and the GSTIN reads back', async () => {
    const ledger = `<LEDGER NAME="Mehta Exports" ACTION="Create"><LANGUAGENAME.LIST><NAME.LIST TYPE="String"><NAME>Mehta Exports</NAME></NAME.LIST><LANGUAGEID> 1033</LANGUAGEID></LANGUAGENAME.LIST>` +
      `<PARENT>Sundry Debtors</PARENT><ISBILLWISEON>Yes</ISBILLWISEON><INCOMETAXNUMBER>AAACM1234K</INCOMETAXNUMBER>` +
      `<LEDMAILINGDETAILS.LIST><ADDRESS.LIST TYPE="String"><ADDRESS>12 MG Road</ADDRESS></ADDRESS.LIST><APPLICABLEFROM>20260401</APPLICABLEFROM><MAILINGNAME>Mehta Exports</MAILINGNAME><STATE>Karnataka</STATE><COUNTRY>India</COUNTRY></LEDMAILINGDETAILS.LIST>` +
      `<LEDGSTREGDETAILS.LIST><APPLICABLEFROM>20260401</APPLICABLEFROM><GSTREGISTRATIONTYPE>Regular</GSTREGISTRATIONTYPE><PLACEOFSUPPLY>Karnataka</PLACEOFSUPPLY><GSTIN>29AAACM1234K1Z2</GSTIN></LEDGSTREGDETAILS.LIST></LEDGER>`;
    expect(await importCounters(legacy('All Masters', ledger))).toMatchObject(created);
    const object = await send(exportEnvelope('Object', '', xmlFormat + '<SVCURRENTCOMPANY>Ledgerwire Demo Traders</SVCURRENTCOMPANY>', '', '<SUBTYPE>Ledger</SUBTYPE><ID TYPE="Name">Mehta Exports</ID>').replace('<ID></ID>', '')
      .replace('</STATICVARIABLES>', '</STATICVARIABLES><FETCHLIST><FETCH>*</FETCH></FETCHLIST>'));
    expect(object).toContain('<GSTIN>29AAACM1234K1Z2</GSTIN>');
  });

  it('TallyConnector Group model: GROUP with NAME.LIST TYPE="String", `&#4; Primary` parent and flags → CREATED=1', async () => {
    const group = '<GROUP NAME="Branch Expenses" ACTION="Create"><NAME.LIST TYPE="String"><NAME>Branch Expenses</NAME></NAME.LIST><PARENT TYPE="String">&#4; Primary</PARENT><ISREVENUE TYPE="Logical">Yes</ISREVENUE><ISDEEMEDPOSITIVE>Yes</ISDEEMEDPOSITIVE><AFFECTSGROSSPROFIT>No</AFFECTSGROSSPROFIT></GROUP>';
    expect(await importCounters(legacy('All Masters', group))).toMatchObject(created);
  });

  it('tally_agent v4 Op 1: a UNIT with a lone NAME → CREATED=1', async () => {
    expect(await importCounters(legacy('All Masters', '<UNIT ACTION="Create"><NAME>Pcs</NAME><ISSIMPLEUNIT>Yes</ISSIMPLEUNIT><DECIMALPLACES> 0</DECIMALPLACES></UNIT>'))).toMatchObject(created);
  });

  it('TallyConnector Unit model: a compound unit (BASEUNITS, ADDITIONALUNITS, CONVERSION, ISSIMPLEUNIT No) → CREATED=1', async () => {
    const compound = '<UNIT NAME="Box of 10 Pcs" ACTION="Create"><NAME>Box of 10 Pcs</NAME><ISSIMPLEUNIT>No</ISSIMPLEUNIT><BASEUNITS>Box</BASEUNITS><ADDITIONALUNITS>Pcs</ADDITIONALUNITS><CONVERSION> 10</CONVERSION></UNIT>';
    expect(await importCounters(legacy('All Masters', compound))).toMatchObject(created);
  });

  it('tally-database-loader mst_godown fields: GODOWN with NAME.LIST and a parent → CREATED=1', async () => {
    expect(await importCounters(legacy('All Masters', '<GODOWN NAME="Shop Floor" ACTION="Create"><NAME.LIST><NAME>Shop Floor</NAME></NAME.LIST><PARENT>Warehouse B</PARENT></GODOWN>'))).toMatchObject(created);
  });

  it('tally_agent v4 Op 2-4 / tally-mcp-server master-stock-item template: STOCKGROUP, then a STOCKITEM with opening balance and GST rate details → CREATED=2; opening reads back', async () => {
    const group = '<STOCKGROUP NAME="Fittings" ACTION="Create"><NAME.LIST><NAME>Fittings</NAME></NAME.LIST><PARENT>&#4; Primary</PARENT><ISADDABLE>Yes</ISADDABLE></STOCKGROUP>';
    const stockItem = '<STOCKITEM NAME="Brass Elbow" ACTION="Create"><NAME.LIST TYPE="String"><NAME>Brass Elbow</NAME></NAME.LIST><PARENT>Fittings</PARENT><CATEGORY>&#4; Not Applicable</CATEGORY>' +
      '<BASEUNITS>Pcs</BASEUNITS><GSTAPPLICABLE>&#4; Applicable</GSTAPPLICABLE><GSTTYPEOFSUPPLY>Goods</GSTTYPEOFSUPPLY>' +
      '<GSTDETAILS.LIST><APPLICABLEFROM>20260401</APPLICABLEFROM><HSNCODE>7412</HSNCODE><TAXABILITY>Taxable</TAXABILITY><SRCOFGSTDETAILS>Specify Details Here</SRCOFGSTDETAILS>' +
      '<STATEWISEDETAILS.LIST><STATENAME>&#4; Any</STATENAME><RATEDETAILS.LIST><GSTRATEDUTYHEAD>IGST</GSTRATEDUTYHEAD><GSTRATEVALUATIONTYPE>Based on Value</GSTRATEVALUATIONTYPE><GSTRATE> 18</GSTRATE></RATEDETAILS.LIST></STATEWISEDETAILS.LIST></GSTDETAILS.LIST>' +
      '<OPENINGBALANCE> 40 Pcs</OPENINGBALANCE><OPENINGRATE>25.00/Pcs</OPENINGRATE><OPENINGVALUE>-1000.00</OPENINGVALUE></STOCKITEM>';
    expect(await importCounters(legacy('All Masters', group + stockItem))).toMatchObject({ ...created, created: 2 });
    const read = await send(exportEnvelope('Collection', 'Items', xmlFormat, '<COLLECTION NAME="Items"><TYPE>StockItem</TYPE><FETCH>Name, Parent, OpeningBalance, OpeningValue</FETCH></COLLECTION>'));
    expect(read).toMatch(/<STOCKITEM NAME="Brass Elbow"[\s\S]*?<OPENINGBALANCE[^>]*> 40 Pcs<\/OPENINGBALANCE>/);
  });

  it('TallyConnector CostCentre model: COSTCENTRE with CATEGORY → CREATED=1', async () => {
    expect(await importCounters(legacy('All Masters', '<COSTCENTRE NAME="Mumbai Branch" ACTION="Create"><NAME.LIST><NAME>Mumbai Branch</NAME></NAME.LIST><CATEGORY>Primary Cost Category</CATEGORY></COSTCENTRE>'))).toMatchObject(created);
  });

  it('TallyConnector Currency model: CURRENCY symbol with formal name → CREATED=1', async () => {
    expect(await importCounters(legacy('All Masters', '<CURRENCY NAME="€" ACTION="Create"><NAME.LIST><NAME>€</NAME></NAME.LIST><MAILINGNAME>Euro</MAILINGNAME><EXPANDEDSYMBOL>EUR</EXPANDEDSYMBOL><DECIMALPLACES> 2</DECIMALPLACES></CURRENCY>'))).toMatchObject(created);
  });

  it('bridge §9.8: a VOUCHERTYPE with Manual numbering and PREVENTDUPLICATES → CREATED=1, and a repeated number is refused with EXCEPTIONS=1 and no LINEERROR', async () => {
    const type = '<VOUCHERTYPE NAME="Web Receipt" ACTION="Create"><NAME.LIST><NAME>Web Receipt</NAME></NAME.LIST><PARENT>Receipt</PARENT><NUMBERINGMETHOD>Manual</NUMBERINGMETHOD><PREVENTDUPLICATES>Yes</PREVENTDUPLICATES><ISACTIVE>Yes</ISACTIVE></VOUCHERTYPE>';
    expect(await importCounters(legacy('All Masters', type))).toMatchObject(created);
    const receipt = accountingVoucher('Web Receipt', '20260416', line('Cash', '-5.00') + line('Walk-in Customer', '5.00'), '', '<VOUCHERNUMBER>WR-1</VOUCHERNUMBER>');
    expect(await importCounters(legacy('Vouchers', receipt))).toMatchObject(created);
    expect(await importCounters(legacy('Vouchers', receipt))).toMatchObject({ created: 0, exceptions: 1, lineErrors: [] });
  });

  it('bridge §9.4: Create of an existing ledger alters it (CREATED=0, ALTERED=1)', async () => {
    expect(await importCounters(legacy('All Masters', '<LEDGER NAME="Probe Vendor" ACTION="Create"><NAME.LIST><NAME>Probe Vendor</NAME></NAME.LIST><PARENT>Sundry Creditors</PARENT><ISBILLWISEON>No</ISBILLWISEON></LEDGER>')))
      .toMatchObject({ created: 0, altered: 1, errors: 0 });
  });

  it('bridge WRITE_RESPONSES §9.4a: a partial Alter carrying only INCOMETAXNUMBER → ALTERED=1, the GSTIN kept', async () => {
    expect(await importCounters(legacy('All Masters', '<LEDGER NAME="Mehta Exports" ACTION="Alter"><INCOMETAXNUMBER>AAACM9999K</INCOMETAXNUMBER></LEDGER>'))).toMatchObject({ altered: 1, errors: 0 });
    const object = await send(exportEnvelope('Object', '', xmlFormat, '', '<SUBTYPE>Ledger</SUBTYPE><ID TYPE="Name">Mehta Exports</ID>').replace('<ID></ID>', '')
      .replace('</STATICVARIABLES>', '</STATICVARIABLES><FETCHLIST><FETCH>*</FETCH></FETCHLIST>'));
    expect(object).toContain('AAACM9999K');
    expect(object).toContain('<GSTIN>29AAACM1234K1Z2</GSTIN>');
  });

  it('bridge WRITE_RESPONSES §9.4: a rename by Alter (NAME attribute old, NAME.LIST new) → ALTERED=1; the old name no longer resolves', async () => {
    expect(await importCounters(legacy('All Masters', '<LEDGER NAME="Decl Ledger" ACTION="Alter"><NAME.LIST><NAME>Declared Ledger</NAME></NAME.LIST></LEDGER>'))).toMatchObject({ altered: 1, errors: 0 });
    const old = await importCounters(legacy('Vouchers', accountingVoucher('Payment', '20260416', line('Decl Ledger', '-2.00') + line('Cash', '2.00'))));
    expect(old).toMatchObject({ created: 0, exceptions: 1, lineErrors: ['Ledger &apos;Decl Ledger&apos; does not exist!'] });
  });

  it('tally_agent tally-write-exploration.md Format A: a ledger Create without any inner name → EXCEPTIONS=1, no LINEERROR', async () => {
    expect(await importCounters(legacy('All Masters', '<LEDGER NAME="No Inner" ACTION="Create"><PARENT>Indirect Expenses</PARENT></LEDGER>'))).toMatchObject({ created: 0, exceptions: 1, lineErrors: [] });
  });

  it('tally-mcp-server delete-master template: a fresh group deleted (DELETED=1); deleting it again → `Item does not exist!` (bridge §9.7)', async () => {
    const del = '<GROUP NAME="Branch Expenses" ACTION="Delete"><NAME>Branch Expenses</NAME></GROUP>';
    expect(await importCounters(legacy('All Masters', del))).toMatchObject({ deleted: 1, errors: 0 });
    expect(await importCounters(legacy('All Masters', del))).toMatchObject({ deleted: 0, errors: 1, lineErrors: ['Item does not exist!'] });
  });

  it('tally_agent v4 "Master permanent lock": deleting a ledger a voucher named → `Cannot be deleted!`, ERRORS=1', async () => {
    expect(await importCounters(legacy('All Masters', '<LEDGER NAME="Output CGST" ACTION="Delete"><NAME>Output CGST</NAME></LEDGER>'))).toMatchObject({ deleted: 0, errors: 1, lineErrors: ['Cannot be deleted!'] });
  });

  it('tally_agent v4 "Unit delete": a UNIT Delete without the NAME attribute → `Cannot delete unnamed object: UNIT!`', async () => {
    expect(await importCounters(legacy('All Masters', '<UNIT ACTION="Delete"><NAME>Pcs</NAME></UNIT>'))).toMatchObject({ deleted: 0, lineErrors: ['Cannot delete unnamed object: UNIT!'] });
  });
});

describe('vouchers of every kind', () => {
  it('tally_agent v4 Op 6: a GST sales invoice (party and taxes in LEDGERENTRIES.LIST, items with ACCOUNTINGALLOCATIONS) → CREATED=1; Tally-MCP day-book fixture: every ledger reads back through ALLLEDGERENTRIES', async () => {
    const invoice = `<VOUCHER VCHTYPE="Sales" ACTION="Create" OBJVIEW="Invoice Voucher View"><DATE>20260420</DATE><VOUCHERTYPENAME>Sales</VOUCHERTYPENAME>` +
      `<PARTYLEDGERNAME>Ram &amp; Sons</PARTYLEDGERNAME><PARTYGSTIN>29AAACR1234A1Z5</PARTYGSTIN><PLACEOFSUPPLY>Karnataka</PLACEOFSUPPLY><ISINVOICE>Yes</ISINVOICE><PERSISTEDVIEW>Invoice Voucher View</PERSISTEDVIEW>` +
      line('Ram &amp; Sons', '-236.00', billRef('WEB-9001', 'New Ref', '-236.00'), 'LEDGERENTRIES.LIST') +
      line('Output CGST', '18.00', '', 'LEDGERENTRIES.LIST') + line('Output SGST', '18.00', '', 'LEDGERENTRIES.LIST') +
      item('Widget 12mm', ' 2 Nos', '100.00/Nos', '200.00', 'Sales - Goods') + `</VOUCHER>`;
    const answer = await importCounters(legacy('Vouchers', invoice, '<SVCURRENTCOMPANY>Ledgerwire Demo Traders</SVCURRENTCOMPANY>'));
    expect(answer).toMatchObject(created);
    const read = await send(exportEnvelope('Collection', 'Inv', xmlFormat + '<SVFROMDATE TYPE="Date">20260420</SVFROMDATE><SVTODATE TYPE="Date">20260420</SVTODATE>',
      '<COLLECTION NAME="Inv"><TYPE>Voucher</TYPE><FETCH>VoucherNumber, PartyLedgerName, AllLedgerEntries.LedgerName, AllLedgerEntries.Amount</FETCH></COLLECTION>'));
    for (const ledger of ['Ram &amp; Sons', 'Sales - Goods', 'Output CGST', 'Output SGST']) expect(read).toContain(`<LEDGERNAME TYPE="String">${ledger}</LEDGERNAME>`);
  });

  it('bridge §12a.4: a Receipt with an Agst Ref bill allocation against an opening bill → CREATED=1; Bills Receivable no longer lists the bill', async () => {
    const receipt = accountingVoucher('Receipt', '20260421', line('HDFC Bank', '-10000.00') + line('Ram &amp; Sons', '10000.00', billRef('INV-1001', 'Agst Ref', '10000.00')), '', '<PARTYLEDGERNAME>Ram &amp; Sons</PARTYLEDGERNAME>');
    expect(await importCounters(legacy('Vouchers', receipt))).toMatchObject(created);
    const bills = await send(exportEnvelope('Data', 'Bills Receivable', xmlFormat + '<SVTODATE TYPE="Date">20260430</SVTODATE>'));
    expect(bills).not.toContain('INV-1001');
    expect(bills).toContain('<BILLREF>INV-1002</BILLREF>');
  });

  it('Agst Ref naming a bill the party does not owe → refused with EXCEPTIONS=1 (bridge §12a.4 rules; text a guess)', async () => {
    const receipt = accountingVoucher('Receipt', '20260421', line('Cash', '-1.00') + line('Ram &amp; Sons', '1.00', billRef('NO-SUCH-BILL', 'Agst Ref', '1.00')));
    expect(await importCounters(legacy('Vouchers', receipt))).toMatchObject({ created: 0, exceptions: 1 });
  });

  it('tally-mcp-server / bridge voucher writes: a Payment with a bank allocation → CREATED=1', async () => {
    const bank = '<BANKALLOCATIONS.LIST><DATE>20260422</DATE><INSTRUMENTDATE>20260422</INSTRUMENTDATE><TRANSACTIONTYPE>Cheque</TRANSACTIONTYPE><INSTRUMENTNUMBER>000123</INSTRUMENTNUMBER><AMOUNT>5000.00</AMOUNT></BANKALLOCATIONS.LIST>';
    expect(await importCounters(legacy('Vouchers', accountingVoucher('Payment', '20260422', line('Office Rent', '-5000.00') + line('HDFC Bank', '5000.00', bank))))).toMatchObject(created);
  });

  it('bridge WRITE_RESPONSES §9.3 kinds: a Journal and a Contra (cash deposited) → CREATED=2', async () => {
    const journal = accountingVoucher('Journal', '20260423', line('Freight &amp; Cartage', '-300.00') + line('Northwind Suppliers', '300.00', billRef('NW-1', 'New Ref', '300.00')));
    const contra = accountingVoucher('Contra', '20260423', line('HDFC Bank', '-2000.00') + line('Cash', '2000.00'));
    expect(await importCounters(legacy('Vouchers', journal + contra))).toMatchObject({ created: 2, errors: 0, exceptions: 0 });
  });

  it('bridge unit_a_vouchers_wildcard_live.xml kinds: a Credit Note and a Debit Note in accounting view → CREATED=2', async () => {
    const credit = accountingVoucher('Credit Note', '20260424', line('Sales - Services', '-100.00') + line('Walk-in Customer', '100.00'));
    const debit = accountingVoucher('Debit Note', '20260424', line('Om Packaging House', '-50.00', billRef('OPH-501', 'Agst Ref', '-50.00')) + line('Purchase - Goods', '50.00'));
    expect(await importCounters(legacy('Vouchers', credit + debit))).toMatchObject({ created: 2, errors: 0, exceptions: 0 });
  });

  it('TallyConnector Vouchers_Purchase fixture shape: a Purchase invoice, inward stock (ISDEEMEDPOSITIVE Yes, negative) → CREATED=1', async () => {
    const purchase = `<VOUCHER VCHTYPE="Purchase" ACTION="Create" OBJVIEW="Invoice Voucher View"><DATE>20260425</DATE><VOUCHERTYPENAME>Purchase</VOUCHERTYPENAME><PARTYLEDGERNAME>Northwind Suppliers</PARTYLEDGERNAME>` +
      line('Northwind Suppliers', '1180.00', billRef('NW-PO-1', 'New Ref', '1180.00'), 'LEDGERENTRIES.LIST') +
      line('Input CGST', '-90.00', '', 'LEDGERENTRIES.LIST') + line('Input SGST', '-90.00', '', 'LEDGERENTRIES.LIST') +
      item('Copper Wire', ' 2 Kgs', '500.00/Kgs', '-1000.00', 'Purchase - Goods', true) + '</VOUCHER>';
    expect(await importCounters(legacy('Vouchers', purchase))).toMatchObject(created);
  });

  it('TallyConnector voucher types: a Sales Order with an order line → CREATED=1 and posts nothing to the Trial Balance', async () => {
    const before = await send(exportEnvelope('Data', 'Trial Balance', xmlFormat));
    const order = `<VOUCHER VCHTYPE="Sales Order" ACTION="Create" OBJVIEW="Invoice Voucher View"><DATE>20260426</DATE><VOUCHERTYPENAME>Sales Order</VOUCHERTYPENAME><PARTYLEDGERNAME>Acme Retail Pvt Ltd</PARTYLEDGERNAME>` +
      line('Acme Retail Pvt Ltd', '-500.00', '', 'LEDGERENTRIES.LIST') +
      item('Gift Box', ' 5 Box', '100.00/Box', '500.00', 'Sales - Goods').replace('<BATCHNAME>Primary Batch</BATCHNAME>', '<BATCHNAME>Primary Batch</BATCHNAME><ORDERNO>SO-1</ORDERNO>') + '</VOUCHER>';
    expect(await importCounters(legacy('Vouchers', order))).toMatchObject(created);
    expect(await send(exportEnvelope('Data', 'Trial Balance', xmlFormat))).toBe(before);
  });

  it('TallyConnector voucher types: a Purchase Order with an order line → CREATED=1', async () => {
    const order = `<VOUCHER VCHTYPE="Purchase Order" ACTION="Create" OBJVIEW="Invoice Voucher View"><DATE>20260426</DATE><VOUCHERTYPENAME>Purchase Order</VOUCHERTYPENAME><PARTYLEDGERNAME>Northwind Suppliers</PARTYLEDGERNAME>` +
      line('Northwind Suppliers', '700.00', '', 'LEDGERENTRIES.LIST') + item('Copper Wire', ' 1 Kgs', '700.00/Kgs', '-700.00', 'Purchase - Goods', true) + '</VOUCHER>';
    expect(await importCounters(legacy('Vouchers', order))).toMatchObject(created);
  });

  it('Tally help "Voucher totals do not match": Dr ≠ Cr → the LINEERROR with both totals, EXCEPTIONS=1', async () => {
    const answer = await importCounters(legacy('Vouchers', accountingVoucher('Payment', '20260427', line('Office Rent', '-100.00') + line('Cash', '90.00'))));
    expect(answer).toMatchObject({ created: 0, exceptions: 1, lineErrors: ['Voucher totals do not match! Dr. 100.00 Cr 90.00 Diff: 10.00'] });
  });

  it('bridge IMPLEMENTATION_GUIDE §3.3b: a ledger that does not exist → `Ledger \'x\' does not exist!`, EXCEPTIONS=1', async () => {
    const answer = await importCounters(legacy('Vouchers', accountingVoucher('Payment', '20260427', line('Petty Expenses', '-1.00') + line('Cash', '1.00'))));
    expect(answer).toMatchObject({ created: 0, exceptions: 1, lineErrors: ['Ledger &apos;Petty Expenses&apos; does not exist!'] });
  });

  it('P002 #2-#3: UDF tags a company has not defined are dropped silently (CREATED=1)', async () => {
    const udf = '<UDF:WEBORDERID.LIST DESC="`WebOrderId" ISLIST="YES" TYPE="String" INDEX="9001"><UDF:WEBORDERID DESC="`WebOrderId">ORD-5521</UDF:WEBORDERID></UDF:WEBORDERID.LIST>';
    expect(await importCounters(legacy('Vouchers', accountingVoucher('Journal', '20260427', line('Office Rent', '-3.00') + line('Cash', '3.00'), '', udf)))).toMatchObject(created);
  });

  it('bridge §9.8: an Automatic-numbered type discards the number sent and assigns its own', async () => {
    const { lastvchid } = await importCounters(legacy('Vouchers', accountingVoucher('Payment', '20260428', line('Office Rent', '-4.00') + line('Cash', '4.00'), '', '<VOUCHERNUMBER>CLIENT-77</VOUCHERNUMBER>')));
    const booked = (await vouchers()).find((v) => v.masterId === lastvchid);
    expect(booked.voucherNumber).not.toBe('CLIENT-77');
    expect(booked.voucherNumber).toMatch(/^\d+$/);
  });
});

describe('alter, cancel and delete', () => {
  const keyed = (action: string, amount: string) => accountingVoucher('Journal', '20260501', line('Office Rent', `-${amount}`) + line('Cash', amount)).replace('ACTION="Create"', `REMOTEID="shop-order-42" ACTION="${action}"`);

  it('bridge WRITE_RESPONSES §9.3: Create with a client REMOTEID already used → CREATED=0, ALTERED=1, same MASTERID', async () => {
    const first = await importCounters(legacy('Vouchers', keyed('Create', '20.00')));
    expect(first).toMatchObject(created);
    const again = await importCounters(legacy('Vouchers', keyed('Create', '25.00')));
    expect(again).toMatchObject({ created: 0, altered: 1, lastvchid: first.lastvchid });
  });

  it('bridge IMPLEMENTATION_GUIDE §3.3a: ACTION="Alter" with that REMOTEID books a duplicate (CREATED=1)', async () => {
    const answer = await importCounters(legacy('Vouchers', keyed('Alter', '30.00')));
    expect(answer).toMatchObject({ created: 1, altered: 0 });
  });

  it('tally_agent LESSONS §9: an Alter by TAGNAME="Master ID" carrying only REFERENCE → ALTERED=1', async () => {
    const { lastvchid } = await importCounters(legacy('Vouchers', accountingVoucher('Journal', '20260501', line('Office Rent', '-31.00') + line('Cash', '31.00'))));
    const alter = `<VOUCHER DATE="01-May-2026" TAGNAME="Master ID" TAGVALUE="${lastvchid}" VCHTYPE="Journal" ACTION="Alter"><REFERENCE>S001</REFERENCE></VOUCHER>`;
    expect(await importCounters(legacy('Vouchers', alter))).toMatchObject({ created: 0, altered: 1, errors: 0 });
  });

  it('P002 #26/#28: Cancel by TAGNAME="VoucherNumber" with a DD-Mon-YYYY DATE and a NARRATION body → ALTERED=1, CANCELLED=0', async () => {
    const sale = accountingVoucher('Manual Sales', '20260501', line('Cash', '-8.00') + line('Sales - Services', '8.00'), '', '<VOUCHERNUMBER>MS-501</VOUCHERNUMBER>');
    expect(await importCounters(legacy('Vouchers', sale))).toMatchObject(created);
    const cancel = '<VOUCHER DATE="01-May-2026" TAGNAME="VoucherNumber" TAGVALUE="MS-501" VCHTYPE="Manual Sales" ACTION="Cancel"><NARRATION>Cancelled by shop</NARRATION></VOUCHER>';
    expect(await importCounters(legacy('Vouchers', cancel))).toMatchObject({ altered: 1, cancelled: 0, errors: 0 });
    expect((await vouchers()).find((v) => v.voucherNumber === 'MS-501')).toMatchObject({ isCancelled: true, ledgerEntries: [] });
  });

  it('P002 #26: Cancel by TAGNAME with an empty body → `Cannot process \'empty\' object: VOUCHER!`', async () => {
    const cancel = '<VOUCHER DATE="01-May-2026" TAGNAME="VoucherNumber" TAGVALUE="MS-501" VCHTYPE="Manual Sales" ACTION="Cancel"></VOUCHER>';
    expect(await importCounters(legacy('Vouchers', cancel))).toMatchObject({ altered: 0, lineErrors: ['Cannot process &apos;empty&apos; object: VOUCHER!'] });
  });

  it('tally_agent v4 "Voucher delete — VERIFIED": Delete by TAGNAME="Master ID", empty body, DD-Mon-YYYY → DELETED=1; a YYYYMMDD DATE → `Cannot be deleted!`', async () => {
    const { lastvchid } = await importCounters(legacy('Vouchers', accountingVoucher('Journal', '20260501', line('Office Rent', '-32.00') + line('Cash', '32.00'))));
    const del = (date: string) => `<VOUCHER DATE="${date}" VCHTYPE="Journal" TAGNAME="Master ID" TAGVALUE="${lastvchid}" ACTION="Delete"></VOUCHER>`;
    expect(await importCounters(legacy('Vouchers', del('20260501')))).toMatchObject({ deleted: 0, errors: 1, lineErrors: ['Cannot be deleted!'] });
    expect(await importCounters(legacy('Vouchers', del('01-May-2026')))).toMatchObject({ deleted: 1, errors: 0, lineErrors: [] });
  });

  it('P002 #16: Delete by a MASTERID child element → `Cannot delete unnamed object: VOUCHER!`, counters 0', async () => {
    const del = '<VOUCHER VCHTYPE="Journal" ACTION="Delete"><MASTERID>1</MASTERID></VOUCHER>';
    expect(await importCounters(legacy('Vouchers', del))).toMatchObject({ deleted: 0, errors: 0, lineErrors: ['Cannot delete unnamed object: VOUCHER!'] });
  });

  it('bridge §9.7 / WRITE_RESPONSES §9.3: Delete by the client REMOTEID → DELETED=1; again → `Voucher does not exist!`, ERRORS=1', async () => {
    const del = '<VOUCHER REMOTEID="shop-order-42" VCHTYPE="Journal" ACTION="Delete"><DATE>20260501</DATE></VOUCHER>';
    expect(await importCounters(legacy('Vouchers', del))).toMatchObject({ deleted: 1 });
    expect(await importCounters(legacy('Vouchers', del))).toMatchObject({ deleted: 0, errors: 1, lineErrors: ['Voucher does not exist!'] });
  });
});

describe('lamemustafa/bridge TALLY_PROTOCOL_REFERENCE probes the emulator did not follow before (fixed by this audit)', () => {
  it('§1: single-byte answers are declared `text/xml; charset=utf-8`, and an accented name written in UTF-8 reads back exact', async () => {
    expect(await importCounters(legacy('All Masters', '<LEDGER NAME="Café Naïve" ACTION="Create"><NAME>Café Naïve</NAME><PARENT>Sundry Debtors</PARENT></LEDGER>'))).toMatchObject(created);
    const response = await fetch(t.emulator.xmlUrl, { method: 'POST', body: exportEnvelope('Collection', 'L', xmlFormat, '<COLLECTION NAME="L"><TYPE>Ledger</TYPE><FETCH>Name</FETCH></COLLECTION>'), headers: { 'Content-Type': 'text/xml' } });
    expect(response.headers.get('content-type')).toBe('text/xml; charset=utf-8');
    expect(new TextDecoder('utf-8', { fatal: true }).decode(await response.arrayBuffer())).toContain('<LEDGER NAME="Café Naïve"');
  });

  it('§12a.7: `<TALLYREQUEST>Load Company</TALLYREQUEST>` → STATUS 0 with an empty DATA (not Unknown Request)', async () => {
    const answer = await send('<ENVELOPE><HEADER><VERSION>1</VERSION><TALLYREQUEST>Load Company</TALLYREQUEST></HEADER><BODY><DESC><STATICVARIABLES><SVCURRENTCOMPANY>Ledgerwire Demo Services</SVCURRENTCOMPANY></STATICVARIABLES></DESC></BODY></ENVELOPE>');
    expect(answer).toMatch(/<STATUS>0<\/STATUS>/);
    expect(answer).toMatch(/<DATA(\/>|>\s*<\/DATA>)/);
  });

  it('§9.11: a Ledger collection with SVCURRENTCOMPANY sent empty → STATUS 1, zero rows; another case and a trailing space still match', async () => {
    const tdl = '<COLLECTION NAME="L"><TYPE>Ledger</TYPE><FETCH>Name</FETCH></COLLECTION>';
    const empty = await send(exportEnvelope('Collection', 'L', xmlFormat + '<SVCURRENTCOMPANY></SVCURRENTCOMPANY>', tdl));
    expect(empty).toMatch(/<STATUS>1<\/STATUS>/);
    expect(empty).not.toContain('<LEDGER ');
    expect(await send(exportEnvelope('Collection', 'L', xmlFormat + '<SVCURRENTCOMPANY>LEDGERWIRE demo traders </SVCURRENTCOMPANY>', tdl))).toContain('<LEDGER NAME="Cash"');
  });

  it('§12a.4 #1: a bill the voucher opens is dated by the voucher, whatever BILLDATE was sent', async () => {
    const opened = billRef('DATED-1', 'New Ref', '-50.00').replace('<BILLTYPE>', '<BILLDATE>20260101</BILLDATE><BILLTYPE>');
    expect(await importCounters(legacy('Vouchers', accountingVoucher('Sales', '20260415', line('Acme Retail Pvt Ltd', '-50.00', opened) + line('Sales - Services', '50.00'))))).toMatchObject(created);
    const read = await send(exportEnvelope('Collection', 'B', xmlFormat + '<SVFROMDATE TYPE="Date">20260415</SVFROMDATE><SVTODATE TYPE="Date">20260415</SVTODATE>',
      '<COLLECTION NAME="B"><TYPE>Voucher</TYPE><FETCH>AllLedgerEntries.*</FETCH></COLLECTION>'));
    expect(read).toMatch(/<NAME>DATED-1<\/NAME>\r\n\s*<BILLDATE>20260415<\/BILLDATE>/);
  });

  it('§12a.4 #2: an Agst Ref carries the settled bill\'s own BILLDATE (the opening bill INV-1002 of 25-Mar-2026), not the one sent', async () => {
    const against = billRef('INV-1002', 'Agst Ref', '100.00').replace('<BILLTYPE>', '<BILLDATE>20260416</BILLDATE><BILLTYPE>');
    expect(await importCounters(legacy('Vouchers', accountingVoucher('Receipt', '20260416', line('Cash', '-100.00') + line('Ram &amp; Sons', '100.00', against))))).toMatchObject(created);
    const read = await send(exportEnvelope('Collection', 'B', xmlFormat + '<SVFROMDATE TYPE="Date">20260416</SVFROMDATE><SVTODATE TYPE="Date">20260416</SVTODATE>',
      '<COLLECTION NAME="B"><TYPE>Voucher</TYPE><FETCH>AllLedgerEntries.*</FETCH></COLLECTION>'));
    expect(read).toMatch(/<NAME>INV-1002<\/NAME>\r\n\s*<BILLDATE>20260325<\/BILLDATE>/);
  });

  it('§12a.4 #3-#5: Advance naming an existing bill is stored as Agst Ref; On Account loses its name; allocations on a ledger without bill-wise details vanish — all CREATED=1', async () => {
    const receipt = accountingVoucher('Receipt', '20260415', line('Cash', '-30.00') +
      line('Acme Retail Pvt Ltd', '20.00', billRef('ACME-77', 'Advance', '10.00') + billRef('STRAY', 'On Account', '10.00')) +
      line('Walk-in Customer', '10.00', billRef('WALK-1', 'New Ref', '10.00')));
    const { lastvchid, ...rest } = await importCounters(legacy('Vouchers', receipt));
    expect(rest).toMatchObject(created);
    const booked = (await vouchers()).find((v) => v.masterId === lastvchid);
    expect(booked.bills).toEqual([
      expect.objectContaining({ ledgerName: 'Acme Retail Pvt Ltd', name: 'ACME-77', billType: 'Agst Ref' }),
      expect.objectContaining({ ledgerName: 'Acme Retail Pvt Ltd', name: '', billType: 'On Account' }),
    ]);
  });

  it('§9.8: on a Manual + PREVENTDUPLICATES type a failed Alter is cleanly rejected (CREATED=0, ALTERED=0, EXCEPTIONS=1), not duplicated', async () => {
    const sale = (action: string) => accountingVoucher('Manual Sales', '20260415', line('Cash', '-9.00') + line('Sales - Services', '9.00'), '', '<VOUCHERNUMBER>MAN-0001</VOUCHERNUMBER>')
      .replace('ACTION="Create"', `REMOTEID="man-0001" ACTION="${action}"`);
    expect(await importCounters(legacy('Vouchers', sale('Create')))).toMatchObject(created);
    expect(await importCounters(legacy('Vouchers', sale('Alter')))).toMatchObject({ created: 0, altered: 0, exceptions: 1 });
  });

  it('§10: two master creates move the company AltMstId by 2; one voucher create moves AltVchId by 1 (one ALTERID sequence, P002 #15: measured after a change of the same kind)', async () => {
    const ids = async () => {
      const answer = await send(exportEnvelope('Collection', 'Co', xmlFormat, '<COLLECTION NAME="Co"><TYPE>Company</TYPE><FETCH>AltMstId, AltVchId</FETCH></COLLECTION>'));
      const block = /<COMPANY NAME="Ledgerwire Demo Traders"[\s\S]*?<\/COMPANY>/.exec(answer)![0];
      return [Number(/<ALTMSTID[^>]*>\s*(\d+)/.exec(block)![1]), Number(/<ALTVCHID[^>]*>\s*(\d+)/.exec(block)![1])];
    };
    const ledger = (name: string) => `<LEDGER NAME="${name}" ACTION="Create"><NAME>${name}</NAME><PARENT>Indirect Expenses</PARENT></LEDGER>`;
    await importCounters(legacy('All Masters', ledger('Alt A')));
    const [mst] = await ids();
    await importCounters(legacy('All Masters', ledger('Alt B') + ledger('Alt C')));
    expect((await ids())[0]).toBe(mst! + 2);
    const payment = accountingVoucher('Payment', '20260415', line('Alt A', '-1.00') + line('Cash', '1.00'));
    await importCounters(legacy('Vouchers', payment));
    const [, vch] = await ids();
    await importCounters(legacy('Vouchers', payment));
    expect((await ids())[1]).toBe(vch! + 1);
  });

  it('§12a.4 / books-xml §2.3: a voucher DATE in DD-MM-YYYY is not a date → `Voucher date is missing for: …`, EXCEPTIONS=1', async () => {
    const answer = await importCounters(legacy('Vouchers', accountingVoucher('Payment', '15-04-2026', line('Office Rent', '-1.00') + line('Cash', '1.00'))));
    expect(answer).toMatchObject({ created: 0, exceptions: 1, lineErrors: ['Voucher date is missing for: &apos;Payment&apos; voucher .'] });
  });

  it('WRITE_RESPONSES §9.3 (licensed Silver): Cancel by the client REMOTEID → ALTERED=1, CANCELLED=0, the voucher kept as cancelled', async () => {
    const keyed = accountingVoucher('Journal', '20260415', line('Office Rent', '-6.00') + line('Cash', '6.00')).replace('ACTION="Create"', 'REMOTEID="cancel-me" ACTION="Create"');
    const { lastvchid } = await importCounters(legacy('Vouchers', keyed));
    expect(await importCounters(legacy('Vouchers', keyed.replace('ACTION="Create"', 'ACTION="Cancel"')))).toMatchObject({ altered: 1, cancelled: 0, created: 0 });
    expect((await vouchers()).find((v) => v.masterId === lastvchid)).toMatchObject({ isCancelled: true });
  });
});
