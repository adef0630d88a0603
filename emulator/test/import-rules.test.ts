// Every import rule with TallyPrime's text and counters, both envelope styles, partial batches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control, counters, demoParty, entry, importData, importV1, postXml, startTestEmulator, voucher, type TestEmulator } from './helpers.js';

let t: TestEmulator;
let demoGuid = '';
beforeAll(async () => {
  t = await startTestEmulator('demo');
  demoGuid = (await control(t.emulator, 'GET', '/companies', 200))[0].guid;
});
afterAll(async () => t.close());

const post = async (objects: string, company?: string, extra = '') => counters(await postXml(t.emulator.xmlUrl, importData(objects, company, extra)));
const rent = (amount = '500.00', options = {}) => voucher('Payment', entry('Office Rent', `-${amount}`) + entry('HDFC Bank', amount), options);

describe('import answers', () => {
  it('books a voucher: legacy bare RESPONSE with the ten counters in order, LASTVCHID = its MASTERID', async () => {
    const text = await postXml(t.emulator.xmlUrl, importData(rent()));
    expect(text).toMatch(/^<RESPONSE><CREATED>1<\/CREATED><ALTERED>0<\/ALTERED><DELETED>0<\/DELETED><LASTVCHID>\d+<\/LASTVCHID><LASTMID>0<\/LASTMID><COMBINED>0<\/COMBINED><IGNORED>0<\/IGNORED><ERRORS>0<\/ERRORS><CANCELLED>0<\/CANCELLED><EXCEPTIONS>0<\/EXCEPTIONS><\/RESPONSE>\r\n$/);
    const booked = await control(t.emulator, 'GET', `/companies/${demoGuid}/vouchers`, 200);
    expect(counters(text).lastvchid).toBe(booked[booked.length - 1].masterId);
  });

  it('VERSION 1 envelope: ENVELOPE/HEADER/STATUS + IMPORTRESULT, LINEERROR beside it, STATUS 0 on a refusal', async () => {
    const good = await postXml(t.emulator.xmlUrl, importV1(rent()));
    expect(good).toContain('<STATUS>1</STATUS>');
    expect(good).toMatch(/<IMPORTRESULT>\r\n\s*<CREATED>1<\/CREATED>/);
    const bad = await postXml(t.emulator.xmlUrl, importV1(voucher('Payment', entry('Nobody', '-1.00') + entry('Cash', '1.00'))));
    expect(bad).toContain('<STATUS>0</STATUS>');
    expect(bad).toContain('<EXCEPTIONS>1</EXCEPTIONS>');
    expect(bad).toContain('<LINEERROR>Ledger &apos;Nobody&apos; does not exist!</LINEERROR>');
  });

  it('a partial batch reports both: CREATED 2, EXCEPTIONS 1 and the LINEERROR first', async () => {
    const text = await postXml(t.emulator.xmlUrl, importData(rent('1.00') + voucher('Payment', entry('Missing Ledger', '-2.00') + entry('Cash', '2.00')) + rent('3.00')));
    expect(text.startsWith("<RESPONSE><LINEERROR>Ledger 'Missing Ledger' does not exist!</LINEERROR><CREATED>2</CREATED>".replace(/'/g, '&apos;'))).toBe(true);
    expect(counters(text)).toMatchObject({ created: 2, exceptions: 1, errors: 0 });
  });

  it('SVIMPBEHAVIOUREXCP "Stop Import at First Exception" stops at the first refusal', async () => {
    const result = await post(voucher('Payment', entry('Missing', '-2.00') + entry('Cash', '2.00')) + rent('3.00'), undefined, '<SVIMPBEHAVIOUREXCP>Stop Import at First Exception</SVIMPBEHAVIOUREXCP>');
    expect(result).toMatchObject({ created: 0, exceptions: 1 });
  });
});

describe('masters a voucher names', () => {
  it('matches names as TallyPrime does: case, outer spaces and hyphen/space tolerated; & is not and', async () => {
    expect(await post(voucher('payment', entry('  office rent ', '-10.00') + entry('hdfc bank', '10.00')))).toMatchObject({ created: 1 });
    expect(await post(voucher('Payment', entry('Freight and Cartage', '-10.00') + entry('HDFC Bank', '10.00')))).toMatchObject({
      created: 0, exceptions: 1, lineErrors: ["Ledger &apos;Freight and Cartage&apos; does not exist!"],
    });
    expect(await post(voucher('Sales - Goods'.replace(/.*/, 'Sales-Goods'), entry('Cash', '-1.00') + entry('Sales Goods', '1.00')))).toMatchObject({ exceptions: 1 });
  });

  it('refuses a missing voucher type, stock item, unit and godown', async () => {
    expect((await post(voucher('Bogus Type', entry('Cash', '-1.00') + entry('HDFC Bank', '1.00')))).lineErrors).toEqual(['Voucher Type &apos;Bogus Type&apos; does not exist!']);
    const item = (name: string, unit: string, godown: string) =>
      `<ALLINVENTORYENTRIES.LIST><STOCKITEMNAME>${name}</STOCKITEMNAME><ISDEEMEDPOSITIVE>No</ISDEEMEDPOSITIVE><RATE>10.00/${unit}</RATE><ACTUALQTY> 1 ${unit}</ACTUALQTY><BILLEDQTY> 1 ${unit}</BILLEDQTY><AMOUNT>10.00</AMOUNT><BATCHALLOCATIONS.LIST><GODOWNNAME>${godown}</GODOWNNAME><AMOUNT>10.00</AMOUNT></BATCHALLOCATIONS.LIST><ACCOUNTINGALLOCATIONS.LIST><LEDGERNAME>Sales - Goods</LEDGERNAME><ISDEEMEDPOSITIVE>No</ISDEEMEDPOSITIVE><AMOUNT>10.00</AMOUNT></ACCOUNTINGALLOCATIONS.LIST></ALLINVENTORYENTRIES.LIST>`;
    const sale = (inv: string) => voucher('Sales', `<LEDGERENTRIES.LIST><LEDGERNAME>Cash</LEDGERNAME><ISDEEMEDPOSITIVE>Yes</ISDEEMEDPOSITIVE><AMOUNT>-10.00</AMOUNT></LEDGERENTRIES.LIST>${inv}`, { view: 'Invoice Voucher View' });
    expect((await post(sale(item('Gadget', 'Nos', 'Main Location')))).lineErrors).toEqual(['Stock Item &apos;Gadget&apos; does not exist!']);
    expect((await post(sale(item('Widget 12mm', 'Pcs', 'Main Location')))).lineErrors).toEqual(['Unit &apos;Pcs&apos; does not exist!']);
    expect((await post(sale(item('Widget 12mm', 'Nos', 'Far Away')))).lineErrors).toEqual(['Godown &apos;Far Away&apos; does not exist!']);
    expect(await post(sale(item('widget 12mm', 'nos', 'main location')))).toMatchObject({ created: 1, exceptions: 0 });
  });
});

describe('amounts and views', () => {
  it('Dr = Cr by the sign of AMOUNT, else "Voucher totals do not match!"', async () => {
    expect(await post(voucher('Journal', entry('Office Rent', '-100.00') + entry('Cash', '90.00')))).toMatchObject({
      created: 0, exceptions: 1, lineErrors: ['Voucher totals do not match! Dr. 100.00 Cr 90.00 Diff: 10.00'],
    });
  });

  it('invoice view needs inventory entries in an inventory company, not in an accounts-only one', async () => {
    const invoice = voucher('Sales', entry(demoParty, '-100.00') + entry('Sales - Services', '100.00'), { view: 'Invoice Voucher View' });
    expect(await post(invoice)).toMatchObject({ created: 0, exceptions: 1 });
    const services = voucher('Sales', entry('Blue Client LLP', '-100.00') + entry('Consulting Income', '100.00'), { view: 'Invoice Voucher View' });
    expect(await post(services, 'Ledgerwire Demo Services')).toMatchObject({ created: 1 });
  });

  it('GST details on a voucher of a company without GST are refused', async () => {
    const gst = voucher('Sales', entry('Blue Client LLP', '-118.00') + entry('Consulting Income', '118.00'), { extra: '<PARTYGSTIN>27AABCB1234C1Z1</PARTYGSTIN>' });
    expect(await post(gst, 'Ledgerwire Demo Services')).toMatchObject({ created: 0, exceptions: 1, lineErrors: ['GST is not enabled for this Company!'] });
    expect(await post(gst.replace('Blue Client LLP', demoParty).replace('Consulting Income', 'Sales - Services'))).toMatchObject({ created: 1 });
  });
});
