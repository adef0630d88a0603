// Vouchers addressed and read back as TallyPrime does: TAGNAME="Master ID" deletes, DATE attribute
// forms, Alter by TAGNAME and by REMOTEID, what an upsert keeps, and an invoice read back through
// ALLLEDGERENTRIES. Each test names its public source (emulator/evidence/imports.md has the quotes).
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
const vouchers = async (): Promise<any[]> => control(t.emulator, 'GET', `/companies/${guid}/vouchers`, 200);
const byId = async (masterId: number) => (await vouchers()).find((v) => v.masterId === masterId);
const journal = (amount: string, options: Parameters<typeof voucher>[2] = {}) =>
  voucher('Journal', entry('Office Rent', `-${amount}`) + entry('Cash', amount), { date: '20260502', ...options });

describe('Delete by TAGNAME="Master ID" (ripu-nuvanta/tally_agent docs/tally-write-exploration-v4.md "Voucher delete — VERIFIED")', () => {
  it('an empty body with a DD-Mon-YYYY DATE attribute deletes (DELETED=1)', async () => {
    const { lastvchid } = await post(journal('11.00'));
    const del = `<VOUCHER DATE="02-May-2026" VCHTYPE="Journal" TAGNAME="Master ID" TAGVALUE="${lastvchid}" ACTION="Delete"></VOUCHER>`;
    expect(await post(del)).toMatchObject({ deleted: 1, errors: 0, exceptions: 0, lineErrors: [] });
    expect(await byId(lastvchid as number)).toBeUndefined();
  });

  it('a YYYYMMDD DATE attribute answers "Cannot be deleted!" and the voucher stays', async () => {
    const { lastvchid } = await post(journal('12.00'));
    const del = `<VOUCHER DATE="20260502" VCHTYPE="Journal" TAGNAME="Master ID" TAGVALUE="${lastvchid}" ACTION="Delete"></VOUCHER>`;
    expect(await post(del)).toMatchObject({ deleted: 0, errors: 1, lineErrors: ['Cannot be deleted!'] });
    expect(await byId(lastvchid as number)).toBeDefined();
  });

  it('TAGNAME="Voucher Number" (with the space) works as well', async () => {
    await post(voucher('Manual Sales', entry('Cash', '-7.00') + entry('Sales - Services', '7.00'), { number: 'VN-77', date: '20260502' }));
    expect(await post('<VOUCHER DATE="2-May-2026" VCHTYPE="Manual Sales" TAGNAME="Voucher Number" TAGVALUE="VN-77" ACTION="Delete"></VOUCHER>')).toMatchObject({ deleted: 1 });
  });

  it('a Cancel with an empty body is still an empty object (books-xml.md §2.3, P002 #26)', async () => {
    const { lastvchid } = await post(journal('13.00'));
    expect(await post(`<VOUCHER DATE="02-May-2026" VCHTYPE="Journal" TAGNAME="Master ID" TAGVALUE="${lastvchid}" ACTION="Cancel"></VOUCHER>`)).toMatchObject({
      altered: 0, lineErrors: ['Cannot process &apos;empty&apos; object: VOUCHER!'],
    });
  });
});

describe('Alter (tally_agent LESSONS.md §9; lamemustafa/bridge docs/tally/IMPLEMENTATION_GUIDE.md §3.3a)', () => {
  it('an Alter by TAGNAME="Master ID" carrying only REFERENCE changes only it (ALTERED=1): entries and narration kept', async () => {
    const { lastvchid } = await post(journal('14.00', { extra: '<NARRATION>keep me</NARRATION>' }));
    const alter = `<VOUCHER DATE="02-May-2026" TAGNAME="Master ID" TAGVALUE="${lastvchid}" VCHTYPE="Journal" ACTION="Alter"><REFERENCE>S001</REFERENCE></VOUCHER>`;
    expect(await post(alter)).toMatchObject({ altered: 1, created: 0, exceptions: 0, lastvchid });
    const read = await postXml(t.emulator.xmlUrl, collectionRequest('V', 'Voucher', 'MasterId, Reference, Narration, AllLedgerEntries.Amount', {
      from: '20260502', to: '20260502', filters: 'One', formulae: `<SYSTEM TYPE="Formulae" NAME="One">$MasterId = ${lastvchid}</SYSTEM>`,
    }));
    expect(read).toContain('>S001</REFERENCE>');
    expect(read).toContain('>keep me</NARRATION>');
    expect((await byId(lastvchid as number)).ledgerEntries).toEqual([{ ledgerName: 'Office Rent', amount: -14 }, { ledgerName: 'Cash', amount: 14 }]);
  });

  it('a partial Alter by Master ID that carries only ledger entries leaves them as they were (ALTERED=1); a full body sent as an Alter books a duplicate (LESSONS §10)', async () => {
    const { lastvchid } = await post(journal('20.00'));
    const entriesOnly = `<VOUCHER DATE="02-May-2026" TAGNAME="Master ID" TAGVALUE="${lastvchid}" VCHTYPE="Journal" ACTION="Alter">${entry('Office Rent', '-21.00')}${entry('Cash', '21.00')}</VOUCHER>`;
    expect(await post(entriesOnly)).toMatchObject({ altered: 1, created: 0 });
    expect((await byId(lastvchid as number)).ledgerEntries).toEqual([{ ledgerName: 'Office Rent', amount: -20 }, { ledgerName: 'Cash', amount: 20 }]);
    const before = (await vouchers()).length;
    const fullBody = journal('22.00').replace('<VOUCHER ', `<VOUCHER DATE="02-May-2026" TAGNAME="Master ID" TAGVALUE="${lastvchid}" `).replace('ACTION="Create"', 'ACTION="Alter"');
    expect(await post(fullBody)).toMatchObject({ created: 1, altered: 0 });
    expect((await vouchers()).length).toBe(before + 1);
    expect((await byId(lastvchid as number)).ledgerEntries[0].amount).toBe(-20);
  });

  it('ACTION="Alter" keyed by a client REMOTEID that names a voucher books a second voucher (CREATED=1), the first untouched', async () => {
    await post(journal('15.00', { remoteId: 'alter-key-1' }));
    const first = (await vouchers()).find((v) => v.remoteId === 'alter-key-1');
    expect(await post(journal('16.00', { remoteId: 'alter-key-1', action: 'Alter' }))).toMatchObject({ created: 1, altered: 0 });
    expect(await byId(first.masterId)).toMatchObject({ alterId: first.alterId, ledgerEntries: first.ledgerEntries });
    // The key stays with the first voucher: a Create with it still alters that one.
    expect(await post(journal('17.00', { remoteId: 'alter-key-1' }))).toMatchObject({ created: 0, altered: 1, lastvchid: first.masterId });
  });
});

describe('upsert by client REMOTEID (ComplyEaze/bridge docs/tally/TALLY_PROTOCOL_REFERENCE_WRITE_RESPONSES_AND_MASTERS.md §9.3, licensed 7.1 Silver)', () => {
  it('keeps the fields the resend omits (ISOPTIONAL, NARRATION) and replaces the entries as a set', async () => {
    const three = entry('Office Rent', '-30.00') + entry('Freight &amp; Cartage', '-10.00') + entry('Cash', '40.00');
    await post(voucher('Payment', three, { remoteId: 'upsert-1', date: '20260502', extra: '<NARRATION>first</NARRATION><ISOPTIONAL>Yes</ISOPTIONAL>' }));
    const two = entry('Office Rent', '-25.00') + entry('Cash', '25.00');
    expect(await post(voucher('Payment', two, { remoteId: 'upsert-1', date: '20260502' }))).toMatchObject({ created: 0, altered: 1 });
    const after = (await vouchers()).filter((v) => v.remoteId === 'upsert-1');
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ isOptional: true, narration: 'first' });
    expect(after[0].ledgerEntries).toEqual([{ ledgerName: 'Office Rent', amount: -25 }, { ledgerName: 'Cash', amount: 25 }]);
  });

  it('a resend after a Cancel un-cancels with the entries restored; a Payment resent as a Receipt becomes one', async () => {
    const { lastvchid } = await post(journal('18.00', { remoteId: 'upsert-2' }));
    await post(`<VOUCHER REMOTEID="upsert-2" VCHTYPE="Journal" ACTION="Cancel"><NARRATION>void</NARRATION></VOUCHER>`);
    expect(await byId(lastvchid as number)).toMatchObject({ isCancelled: true, ledgerEntries: [] });
    expect(await post(journal('19.00', { remoteId: 'upsert-2' }))).toMatchObject({ created: 0, altered: 1 });
    expect(await byId(lastvchid as number)).toMatchObject({ isCancelled: false, ledgerEntries: [{ ledgerName: 'Office Rent', amount: -19 }, { ledgerName: 'Cash', amount: 19 }] });
    await post(voucher('Payment', entry('Office Rent', '-5.00') + entry('Cash', '5.00'), { remoteId: 'upsert-3', date: '20260502' }));
    expect(await post(voucher('Receipt', entry('Cash', '-5.00') + entry('Office Rent', '5.00'), { remoteId: 'upsert-3', date: '20260502' }))).toMatchObject({ altered: 1 });
    expect((await vouchers()).find((v) => v.remoteId === 'upsert-3')).toMatchObject({ voucherType: 'Receipt' });
  });
});

describe('an invoice with LEDGERENTRIES.LIST reads back through ALLLEDGERENTRIES (MarketingBNG/Tally-MCP tests/fixtures/day-book.xml; tally_agent LESSONS.md §18)', () => {
  it('party, item ledger and tax lines all come back under AllLedgerEntries; LedgerEntries still holds party and tax', async () => {
    const invoice = voucher(
      'Sales',
      '<PARTYLEDGERNAME>Ram &amp; Sons</PARTYLEDGERNAME>' +
        '<LEDGERENTRIES.LIST><LEDGERNAME>Ram &amp; Sons</LEDGERNAME><ISDEEMEDPOSITIVE>Yes</ISDEEMEDPOSITIVE><ISPARTYLEDGER>Yes</ISPARTYLEDGER><AMOUNT>-118.00</AMOUNT></LEDGERENTRIES.LIST>' +
        '<LEDGERENTRIES.LIST><LEDGERNAME>Output CGST</LEDGERNAME><ISDEEMEDPOSITIVE>No</ISDEEMEDPOSITIVE><AMOUNT>9.00</AMOUNT></LEDGERENTRIES.LIST>' +
        '<LEDGERENTRIES.LIST><LEDGERNAME>Output SGST</LEDGERNAME><ISDEEMEDPOSITIVE>No</ISDEEMEDPOSITIVE><AMOUNT>9.00</AMOUNT></LEDGERENTRIES.LIST>' +
        '<ALLINVENTORYENTRIES.LIST><STOCKITEMNAME>Widget 12mm</STOCKITEMNAME><ISDEEMEDPOSITIVE>No</ISDEEMEDPOSITIVE><RATE>50.00/Nos</RATE><ACTUALQTY> 2 Nos</ACTUALQTY><BILLEDQTY> 2 Nos</BILLEDQTY><AMOUNT>100.00</AMOUNT>' +
        '<ACCOUNTINGALLOCATIONS.LIST><LEDGERNAME>Sales - Goods</LEDGERNAME><ISDEEMEDPOSITIVE>No</ISDEEMEDPOSITIVE><AMOUNT>100.00</AMOUNT></ACCOUNTINGALLOCATIONS.LIST></ALLINVENTORYENTRIES.LIST>',
      { view: 'Invoice Voucher View', date: '20260531' },
    );
    const { lastvchid, created } = await post(invoice);
    expect(created).toBe(1);
    const read = await postXml(t.emulator.xmlUrl, collectionRequest('Inv', 'Voucher', 'MasterId, AllLedgerEntries.LedgerName, AllLedgerEntries.Amount, LedgerEntries.LedgerName', {
      from: '20260531', to: '20260531', filters: 'One', formulae: `<SYSTEM TYPE="Formulae" NAME="One">$MasterId = ${lastvchid}</SYSTEM>`,
    }));
    const all = [...read.matchAll(/<ALLLEDGERENTRIES\.LIST>([\s\S]*?)<\/ALLLEDGERENTRIES\.LIST>/g)].map((m) => /<LEDGERNAME[^>]*>([^<]*)</.exec(m[1]!)![1]);
    expect(all).toEqual(['Ram &amp; Sons', 'Sales - Goods', 'Output CGST', 'Output SGST']);
    expect(read).toMatch(/<AMOUNT TYPE="Amount">100\.00<\/AMOUNT>/);
    const ledgerOnly = [...read.matchAll(/<LEDGERENTRIES\.LIST>([\s\S]*?)<\/LEDGERENTRIES\.LIST>/g)].length;
    expect(ledgerOnly).toBe(3);
  });

  it('that Day Book export imports again as the same postings, counted once (ALLLEDGERENTRIES is complete there)', async () => {
    const dayBook = await postXml(t.emulator.xmlUrl, '<ENVELOPE><HEADER><VERSION>1</VERSION><TALLYREQUEST>Export</TALLYREQUEST><TYPE>Data</TYPE><ID>Day Book</ID></HEADER><BODY><DESC><STATICVARIABLES><SVFROMDATE>20260531</SVFROMDATE><SVTODATE>20260531</SVTODATE></STATICVARIABLES></DESC></BODY></ENVELOPE>');
    const exported = /<VOUCHER [\s\S]*?<\/VOUCHER>/.exec(dayBook)![0];
    expect(exported).toContain('<ALLLEDGERENTRIES.LIST>');
    const again = await post(exported);
    expect(again).toMatchObject({ created: 1, exceptions: 0 });
    const copy = await byId(again.lastvchid as number);
    expect(copy.ledgerEntries).toEqual([
      { ledgerName: 'Ram & Sons', amount: -118 },
      { ledgerName: 'Sales - Goods', amount: 100 },
      { ledgerName: 'Output CGST', amount: 9 },
      { ledgerName: 'Output SGST', amount: 9 },
    ]);
  });
});
