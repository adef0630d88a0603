// Masters in every name shape integrators send, aliases resolving in vouchers, renames, partial
// alters, name matching and TallyPrime's delete/cancel refusals. Each test names its public source
// (emulator/evidence/imports.md has the quotes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionRequest, control, counters, entry, importData, postXml, startTestEmulator, voucher, type TestEmulator } from './helpers.js';

let t: TestEmulator;
let guid = '';
beforeAll(async () => {
  t = await startTestEmulator('demo');
  guid = (await control(t.emulator, 'GET', '/companies', 200))[0].guid;
});
afterAll(async () => t.close());

const post = async (objects: string) => counters(await postXml(t.emulator.xmlUrl, importData(objects)));
const masters = async (type: string): Promise<any[]> => control(t.emulator, 'GET', `/companies/${guid}/masters?type=${type}`, 200);
const master = async (type: string, name: string) => (await masters(type)).find((m) => m.name === name);
const payment = (debit: string, amount = '10.00', credit = 'Cash') => voucher('Payment', entry(debit, `-${amount}`) + entry(credit, amount));
const goodsSale = (item: string, unit = 'Nos', ledger = 'Sales - Goods') =>
  voucher(
    'Sales',
    `<LEDGERENTRIES.LIST><LEDGERNAME>Cash</LEDGERNAME><ISDEEMEDPOSITIVE>Yes</ISDEEMEDPOSITIVE><AMOUNT>-10.00</AMOUNT></LEDGERENTRIES.LIST>` +
      `<ALLINVENTORYENTRIES.LIST><STOCKITEMNAME>${item}</STOCKITEMNAME><ISDEEMEDPOSITIVE>No</ISDEEMEDPOSITIVE><RATE>10.00/${unit}</RATE><ACTUALQTY> 1 ${unit}</ACTUALQTY><BILLEDQTY> 1 ${unit}</BILLEDQTY><AMOUNT>10.00</AMOUNT>` +
      `<ACCOUNTINGALLOCATIONS.LIST><LEDGERNAME>${ledger}</LEDGERNAME><ISDEEMEDPOSITIVE>No</ISDEEMEDPOSITIVE><AMOUNT>10.00</AMOUNT></ACCOUNTINGALLOCATIONS.LIST></ALLINVENTORYENTRIES.LIST>`,
    { view: 'Invoice Voucher View' },
  );

describe('name shapes (ripu-nuvanta/tally_agent docs/tally-write-exploration.md, -v4.md; dhananjay1405/tally-mcp-server master templates)', () => {
  it('a bare NAME.LIST with TYPE="String" under LEDGER: first NAME is the name, the next an alias that resolves in a voucher', async () => {
    const ledger = '<LEDGER NAME="Kiran Traders" ACTION="Create"><NAME.LIST TYPE="String"><NAME>Kiran Traders</NAME><NAME>KT</NAME></NAME.LIST><PARENT>Sundry Debtors</PARENT></LEDGER>';
    expect(await post(ledger)).toMatchObject({ created: 1, errors: 0, exceptions: 0 });
    expect(await master('ledger', 'Kiran Traders')).toMatchObject({ aliases: ['KT'], parent: 'Sundry Debtors' });
    expect(await post(payment('kt'))).toMatchObject({ created: 1, exceptions: 0 });
    const booked = (await control(t.emulator, 'GET', `/companies/${guid}/vouchers`, 200)).at(-1);
    expect(booked.ledgerEntries[0].ledgerName).toBe('Kiran Traders');
  });

  it('NAME.LIST without TYPE for groups, stock groups, stock categories, godowns, voucher types, currencies and stock items; a lone NAME for a unit', async () => {
    const objects = [
      '<GROUP NAME="Online Debtors" ACTION="Create"><NAME.LIST><NAME>Online Debtors</NAME><NAME>OD</NAME></NAME.LIST><PARENT>Sundry Debtors</PARENT></GROUP>',
      '<UNIT ACTION="Create"><NAME>Pkt</NAME><ISSIMPLEUNIT>Yes</ISSIMPLEUNIT></UNIT>',
      '<STOCKGROUP NAME="Fasteners" ACTION="Create"><NAME.LIST><NAME>Fasteners</NAME></NAME.LIST><PARENT/></STOCKGROUP>',
      '<STOCKCATEGORY NAME="Steel" ACTION="Create"><NAME.LIST><NAME>Steel</NAME></NAME.LIST></STOCKCATEGORY>',
      '<GODOWN NAME="Back Room" ACTION="Create"><NAME.LIST><NAME>Back Room</NAME><NAME>BR</NAME></NAME.LIST></GODOWN>',
      '<VOUCHERTYPE NAME="Shop Sales" ACTION="Create"><NAME.LIST><NAME>Shop Sales</NAME></NAME.LIST><PARENT>Sales</PARENT></VOUCHERTYPE>',
      '<CURRENCY NAME="£" ACTION="Create"><NAME.LIST><NAME>£</NAME></NAME.LIST><MAILINGNAME>Pound</MAILINGNAME></CURRENCY>',
      '<STOCKITEM NAME="Hex Bolt M8" ACTION="Create"><NAME.LIST TYPE="String"><NAME>Hex Bolt M8</NAME><NAME>HB8</NAME></NAME.LIST><PARENT>Fasteners</PARENT><CATEGORY>Steel</CATEGORY><BASEUNITS>Pkt</BASEUNITS></STOCKITEM>',
    ];
    expect(await post(objects.join(''))).toMatchObject({ created: 8, errors: 0, exceptions: 0 });
    expect(await master('group', 'Online Debtors')).toMatchObject({ aliases: ['OD'] });
    expect(await master('stock_item', 'Hex Bolt M8')).toMatchObject({ aliases: ['HB8'], parent: 'Fasteners' });
    expect(await post('<LEDGER NAME="Web Buyer" ACTION="Create"><NAME.LIST><NAME>Web Buyer</NAME></NAME.LIST><PARENT>od</PARENT></LEDGER>')).toMatchObject({ created: 1 });
    // The stock item's alias resolves in a voucher's STOCKITEMNAME.
    expect(await post(goodsSale('hb8', 'Pkt'))).toMatchObject({ created: 1, exceptions: 0 });
  });

  it('cost categories and cost centres are masters too (TallyConnector models CostCategory/CostCentre): create, alias, parent, delete rules', async () => {
    const objects = [
      '<COSTCATEGORY NAME="Projects" ACTION="Create"><NAME.LIST><NAME>Projects</NAME></NAME.LIST></COSTCATEGORY>',
      '<COSTCENTRE NAME="Head Office" ACTION="Create"><NAME.LIST TYPE="String"><NAME>Head Office</NAME><NAME>HO</NAME></NAME.LIST><PARENT/><CATEGORY>Primary Cost Category</CATEGORY></COSTCENTRE>',
      '<COSTCENTRE NAME="Site A" ACTION="Create"><NAME.LIST><NAME>Site A</NAME></NAME.LIST><PARENT>ho</PARENT><CATEGORY>Projects</CATEGORY></COSTCENTRE>',
    ];
    expect(await post(objects.join(''))).toMatchObject({ created: 3, errors: 0 });
    expect(await master('cost_centre', 'Site A')).toMatchObject({ parent: 'Head Office' });
    expect(await post('<COSTCENTRE NAME="Site B" ACTION="Create"><NAME.LIST><NAME>Site B</NAME></NAME.LIST><CATEGORY>Nowhere</CATEGORY></COSTCENTRE>')).toMatchObject({
      errors: 1, lineErrors: ['Cost Category &apos;Nowhere&apos; does not exist!'],
    });
    expect(await post('<COSTCENTRE NAME="Head Office" ACTION="Delete"><NAME>Head Office</NAME></COSTCENTRE>')).toMatchObject({ errors: 1, lineErrors: ['Cannot be deleted!'] });
  });

  it('a Create without any inner name is refused silently: CREATED=0, EXCEPTIONS=1, no LINEERROR', async () => {
    expect(await post('<LEDGER NAME="Format A" ACTION="Create"><PARENT>Indirect Expenses</PARENT></LEDGER>')).toMatchObject({
      created: 0, errors: 0, exceptions: 1, lineErrors: [],
    });
    expect(await master('ledger', 'Format A')).toBeUndefined();
  });
});

describe('shapes public integrations send (dhananjay1405/tally-mcp-server templates/push/master-ledger.njk, master-stock-item.njk, templates/generic/delete-master.njk)', () => {
  it('LANGUAGENAME.LIST without LANGUAGEID, dated mailing and GST details, a Create whose NAME attribute is the old name, and the delete template', async () => {
    const ledger = (attrName: string, name: string) =>
      `<LEDGER NAME="${attrName}" ACTION="Create"><LANGUAGENAME.LIST><NAME.LIST><NAME>${name}</NAME></NAME.LIST></LANGUAGENAME.LIST><PARENT>Sundry Debtors</PARENT><OPENINGBALANCE>-500</OPENINGBALANCE><ISBILLWISEON>Yes</ISBILLWISEON><BILLCREDITPERIOD>30 Days</BILLCREDITPERIOD>` +
      '<LEDMAILINGDETAILS.LIST><APPLICABLEFROM>20250401</APPLICABLEFROM><MAILINGNAME>Mcp Buyer</MAILINGNAME><COUNTRY>India</COUNTRY><STATE>Karnataka</STATE></LEDMAILINGDETAILS.LIST>' +
      '<LEDGSTREGDETAILS.LIST><APPLICABLEFROM>20250401</APPLICABLEFROM><GSTREGISTRATIONTYPE>Regular</GSTREGISTRATIONTYPE><GSTIN>29ZZZZZ0000Z1Z5</GSTIN></LEDGSTREGDETAILS.LIST></LEDGER>';
    expect(await post(ledger('Mcp Buyer', 'Mcp Buyer'))).toMatchObject({ created: 1, errors: 0, exceptions: 0 });
    expect(await post(ledger('Mcp Buyer', 'Mcp Buyer Pvt Ltd'))).toMatchObject({ created: 0, altered: 1 });
    expect(await master('ledger', 'Mcp Buyer Pvt Ltd')).toMatchObject({ parent: 'Sundry Debtors' });
    const item = '<STOCKITEM NAME="Mcp Widget" ACTION="Create"><LANGUAGENAME.LIST><NAME.LIST><NAME>Mcp Widget</NAME></NAME.LIST></LANGUAGENAME.LIST><PARENT>Electronics</PARENT><CATEGORY>&#4; Not Applicable</CATEGORY><BASEUNITS>Nos</BASEUNITS><GSTAPPLICABLE>&#4; Applicable</GSTAPPLICABLE></STOCKITEM>';
    expect(await post(item)).toMatchObject({ created: 1, errors: 0 });
    expect(await post('<STOCKITEM NAME="Mcp Widget" ACTION="Delete"><NAME>Mcp Widget</NAME></STOCKITEM>')).toMatchObject({ deleted: 1 });
  });
});

describe('rename and partial alter (ComplyEaze/bridge docs/tally/TALLY_PROTOCOL_REFERENCE_WRITE_RESPONSES_AND_MASTERS.md §9.4, §9.4a)', () => {
  it('a rename through NAME.LIST under the old NAME attribute changes only the name: same GUID and MASTERID, parent kept, old name gone', async () => {
    await post('<LEDGER NAME="Old Name Co" ACTION="Create"><NAME.LIST><NAME>Old Name Co</NAME></NAME.LIST><PARENT>Sundry Creditors</PARENT></LEDGER>');
    const before = await master('ledger', 'Old Name Co');
    const { lastvchid } = await post(payment('Old Name Co'));
    const rename = '<LEDGER NAME="Old Name Co" ACTION="Alter"><LANGUAGENAME.LIST><NAME.LIST TYPE="String"><NAME>New Name Co</NAME></NAME.LIST><LANGUAGEID>1033</LANGUAGEID></LANGUAGENAME.LIST></LEDGER>';
    expect(await post(rename)).toMatchObject({ altered: 1, created: 0, errors: 0 });
    const after = await master('ledger', 'New Name Co');
    expect(after).toMatchObject({ guid: before.guid, masterId: before.masterId, parent: 'Sundry Creditors' });
    expect(after.alterId).toBeGreaterThan(before.alterId);
    expect(await post(payment('Old Name Co'))).toMatchObject({ created: 0, exceptions: 1 });
    // The ledger keeps its vouchers: they read back under the new name (§9.4 "vouchers still attached").
    const booked = (await control(t.emulator, 'GET', `/companies/${guid}/vouchers`, 200)).find((v: any) => v.masterId === lastvchid);
    expect(booked.ledgerEntries[0]).toEqual({ ledgerName: 'New Name Co', amount: -10 });
  });

  it('a partial Alter by the NAME attribute carrying only INCOMETAXNUMBER keeps PARTYGSTIN, the aliases and the parent (ALTERED=1)', async () => {
    const create = '<LEDGER NAME="Gst Party" ACTION="Create"><NAME.LIST><NAME>Gst Party</NAME><NAME>GP</NAME></NAME.LIST><PARENT>Sundry Debtors</PARENT><INCOMETAXNUMBER>ZZZZZ0000Z</INCOMETAXNUMBER><PARTYGSTIN>27ZZZZZ0000Z1Z5</PARTYGSTIN></LEDGER>';
    expect(await post(create)).toMatchObject({ created: 1 });
    expect(await post('<LEDGER NAME="Gst Party" ACTION="Alter"><INCOMETAXNUMBER>ZZZZZ0001Z</INCOMETAXNUMBER></LEDGER>')).toMatchObject({
      altered: 1, errors: 0, exceptions: 0, lineErrors: [],
    });
    expect(await post('<LEDGER NAME="gst party" ACTION="Alter"><LEDGSTREGDETAILS.LIST><APPLICABLEFROM>20250401</APPLICABLEFROM><GSTREGISTRATIONTYPE>Regular</GSTREGISTRATIONTYPE><GSTIN>27ZZZZZ0000Z1Z5</GSTIN></LEDGSTREGDETAILS.LIST></LEDGER>')).toMatchObject({ altered: 1 });
    const read = await postXml(t.emulator.xmlUrl, collectionRequest('GP', 'Ledger', 'Name, Parent, IncomeTaxNumber, PartyGSTIN, LedGSTRegDetails.*', {
      filters: 'IsGP', formulae: '<SYSTEM TYPE="Formulae" NAME="IsGP">$Name = "Gst Party"</SYSTEM>',
    }));
    expect(read).toContain('ZZZZZ0001Z');
    expect(read).toContain('<PARTYGSTIN TYPE="String">27ZZZZZ0000Z1Z5</PARTYGSTIN>');
    expect(read).toContain('<GSTREGISTRATIONTYPE');
    expect(await master('ledger', 'Gst Party')).toMatchObject({ aliases: ['GP'], parent: 'Sundry Debtors' });
  });

  it('a lone inner NAME renames and keeps the aliases; an Alter with ISDELETED=Yes alters and leaves the master in place (tally_agent -v4)', async () => {
    await post('<LEDGER NAME="Alias Keeper" ACTION="Create"><NAME.LIST><NAME>Alias Keeper</NAME><NAME>AK</NAME></NAME.LIST><PARENT>Indirect Expenses</PARENT></LEDGER>');
    expect(await post('<LEDGER NAME="Alias Keeper" ACTION="Alter"><NAME>Alias Holder</NAME></LEDGER>')).toMatchObject({ altered: 1 });
    expect(await master('ledger', 'Alias Holder')).toMatchObject({ aliases: ['AK'] });
    expect(await post('<LEDGER NAME="Alias Holder" ACTION="Alter"><NAME.LIST><NAME>Alias Holder</NAME></NAME.LIST><ISDELETED>Yes</ISDELETED></LEDGER>')).toMatchObject({ altered: 1, deleted: 0 });
    expect(await master('ledger', 'Alias Holder')).toMatchObject({ aliases: [] });
  });
});

describe('name matching on licensed 7.1 (ComplyEaze/bridge WRITE_RESPONSES_AND_MASTERS.md §9.4d)', () => {
  it('folds case, outer and repeated spaces, hyphen and slash for space; not an en dash, an underscore or AND for &', async () => {
    await post('<LEDGER NAME="MB PILOT ALPHA" ACTION="Create"><NAME.LIST><NAME>MB PILOT ALPHA</NAME></NAME.LIST><PARENT>Indirect Expenses</PARENT></LEDGER>');
    for (const spelling of ['  mb pilot alpha  ', 'mb-pilot-alpha', 'MB/PILOT  ALPHA']) {
      expect(await post(payment(spelling)), spelling).toMatchObject({ created: 1, exceptions: 0 });
    }
    for (const spelling of ['MB\u2013PILOT ALPHA', 'MB_PILOT ALPHA']) {
      expect(await post(payment(spelling)), spelling).toMatchObject({ created: 0, exceptions: 1 });
    }
    expect(await post(payment('Profit AND Loss A/c'))).toMatchObject({ created: 0, exceptions: 1 });
  });
});

describe('delete and cancel (ripu-nuvanta/tally_agent docs/tally-write-exploration-v4.md, "Delete path")', () => {
  it('an unused master deletes; a ledger a voucher once named stays locked after the voucher is deleted: "Cannot be deleted!" ERRORS=1', async () => {
    await post('<LEDGER NAME="Temp Expense" ACTION="Create"><NAME.LIST><NAME>Temp Expense</NAME></NAME.LIST><PARENT>Indirect Expenses</PARENT></LEDGER>');
    await post('<LEDGER NAME="Used Expense" ACTION="Create"><NAME.LIST><NAME>Used Expense</NAME></NAME.LIST><PARENT>Indirect Expenses</PARENT></LEDGER>');
    expect(await post('<LEDGER NAME="Temp Expense" ACTION="Delete"><NAME.LIST><NAME>Temp Expense</NAME></NAME.LIST></LEDGER>')).toMatchObject({ deleted: 1 });
    const booked = counters(await postXml(t.emulator.xmlUrl, importData(payment('Used Expense'))));
    const date = '15-Apr-2026';
    expect(await post(`<VOUCHER DATE="${date}" TAGNAME="Master ID" TAGVALUE="${booked.lastvchid}" VCHTYPE="Payment" ACTION="Delete"></VOUCHER>`)).toMatchObject({ deleted: 1 });
    expect(await post('<LEDGER NAME="Used Expense" ACTION="Delete"><NAME.LIST><NAME>Used Expense</NAME></NAME.LIST></LEDGER>')).toMatchObject({
      deleted: 0, errors: 1, lineErrors: ['Cannot be deleted!'],
    });
    // The lock follows the object through a rename.
    expect(await post('<LEDGER NAME="Used Expense" ACTION="Alter"><NAME.LIST><NAME>Renamed Used</NAME></NAME.LIST></LEDGER>')).toMatchObject({ altered: 1 });
    expect(await post('<LEDGER NAME="Renamed Used" ACTION="Delete"><NAME.LIST><NAME>Renamed Used</NAME></NAME.LIST></LEDGER>')).toMatchObject({ errors: 1, lineErrors: ['Cannot be deleted!'] });
  });

  it('a group or stock group with current children is refused; once the child is gone the parent deletes', async () => {
    await post('<STOCKGROUP NAME="Spare Parts" ACTION="Create"><NAME.LIST><NAME>Spare Parts</NAME></NAME.LIST><PARENT/></STOCKGROUP><STOCKITEM NAME="Spare Nut" ACTION="Create"><NAME.LIST><NAME>Spare Nut</NAME></NAME.LIST><PARENT>Spare Parts</PARENT><BASEUNITS>Nos</BASEUNITS></STOCKITEM>');
    expect(await post('<STOCKGROUP NAME="Spare Parts" ACTION="Delete"><NAME.LIST><NAME>Spare Parts</NAME></NAME.LIST></STOCKGROUP>')).toMatchObject({ deleted: 0, errors: 1, lineErrors: ['Cannot be deleted!'] });
    expect(await post('<STOCKITEM NAME="Spare Nut" ACTION="Delete"><NAME.LIST><NAME>Spare Nut</NAME></NAME.LIST></STOCKITEM>')).toMatchObject({ deleted: 1 });
    expect(await post('<STOCKGROUP NAME="Spare Parts" ACTION="Delete"><NAME.LIST><NAME>Spare Parts</NAME></NAME.LIST></STOCKGROUP>')).toMatchObject({ deleted: 1 });
    await post('<GROUP NAME="Busy Group" ACTION="Create"><NAME.LIST><NAME>Busy Group</NAME></NAME.LIST><PARENT>Indirect Expenses</PARENT></GROUP><LEDGER NAME="In Busy" ACTION="Create"><NAME.LIST><NAME>In Busy</NAME></NAME.LIST><PARENT>Busy Group</PARENT></LEDGER>');
    expect(await post('<GROUP NAME="Busy Group" ACTION="Delete"><NAME.LIST><NAME>Busy Group</NAME></NAME.LIST></GROUP>')).toMatchObject({ errors: 1, lineErrors: ['Cannot be deleted!'] });
  });

  it('a Delete without the NAME attribute is an unnamed object (captured for UNIT, applied to every master); a master Cancel is "Cannot be cancelled!"', async () => {
    await post('<LEDGER NAME="No Attr" ACTION="Create"><NAME.LIST><NAME>No Attr</NAME></NAME.LIST><PARENT>Indirect Expenses</PARENT></LEDGER>');
    expect(await post('<LEDGER ACTION="Delete"><NAME.LIST><NAME>No Attr</NAME></NAME.LIST></LEDGER>')).toMatchObject({
      deleted: 0, errors: 0, lineErrors: ['Cannot delete unnamed object: LEDGER!'],
    });
    expect(await post('<LEDGER NAME="Cash" ACTION="Cancel"><NAME.LIST><NAME>Cash</NAME></NAME.LIST></LEDGER>')).toMatchObject({
      errors: 1, lineErrors: ['Cannot be cancelled!'],
    });
  });
});
