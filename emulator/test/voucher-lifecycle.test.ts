// Bill allocations, numbering methods, REMOTEID upserts, Cancel/Delete by TAGNAME, identities.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bill, control, counters, demoParty, entry, importData, postXml, startTestEmulator, voucher, type TestEmulator } from './helpers.js';

let t: TestEmulator;
let guid = '';
beforeAll(async () => {
  t = await startTestEmulator('demo');
  guid = (await control(t.emulator, 'GET', '/companies', 200))[0].guid;
});
afterAll(async () => t.close());

const post = async (objects: string) => counters(await postXml(t.emulator.xmlUrl, importData(objects)));
const vouchers = async (): Promise<any[]> => control(t.emulator, 'GET', `/companies/${guid}/vouchers`, 200);
const receipt = (bills: string, party = demoParty, amount = '1000.00') => voucher('Receipt', entry('HDFC Bank', `-${amount}`) + entry(party, amount, bills));

describe('bill allocations', () => {
  it('New Ref opens a bill that Agst Ref can then settle; Agst Ref to an unknown bill is refused', async () => {
    expect(await post(voucher('Sales', entry(demoParty, '-500.00', bill('NB-1', 'New Ref', '-500.00')) + entry('Sales - Services', '500.00')))).toMatchObject({ created: 1 });
    expect(await post(receipt(bill('NB-1', 'Agst Ref', '500.00'), demoParty, '500.00'))).toMatchObject({ created: 1 });
    expect(await post(receipt(bill('NB-1', 'Agst Ref', '500.00'), demoParty, '500.00'))).toMatchObject({
      created: 0, exceptions: 1, lineErrors: ['Bill &apos;NB-1&apos; is not pending for Ledger &apos;Ram &amp; Sons&apos;!'],
    });
    expect(await post(receipt(bill('NO-SUCH', 'Agst Ref', '1000.00')))).toMatchObject({ exceptions: 1 });
  });

  it('an opening bill of the party is outstanding; another party\'s bill is not', async () => {
    expect(await post(receipt(bill('INV-1001', 'Agst Ref', '1000.00')))).toMatchObject({ created: 1 });
    expect(await post(receipt(bill('ACME-77', 'Agst Ref', '1000.00')))).toMatchObject({ exceptions: 1 });
  });

  it('Advance naming an existing bill is stored as Agst Ref, On Account loses its name, non-bill-wise ledgers drop references', async () => {
    expect(await post(receipt(bill('INV-1002', 'Advance', '100.00'), demoParty, '100.00'))).toMatchObject({ created: 1 });
    expect(await post(receipt(bill('ignored-name', 'On Account', '100.00'), demoParty, '100.00'))).toMatchObject({ created: 1 });
    expect(await post(receipt(bill('WALK-1', 'Agst Ref', '100.00'), 'Walk-in Customer', '100.00'))).toMatchObject({ created: 1, exceptions: 0 });
    const booked = await vouchers();
    const lastThree = booked.slice(-3);
    expect(lastThree[0].bills).toEqual([{ ledgerName: 'Ram & Sons', name: 'INV-1002', billType: 'Agst Ref', amount: 100 }]);
    expect(lastThree[1].bills).toEqual([{ ledgerName: 'Ram & Sons', name: '', billType: 'On Account', amount: 100 }]);
    expect(lastThree[2].bills).toEqual([]);
  });
});

describe('numbering methods and prevent-duplicates', () => {
  const sale = (type: string, number?: string, date = '20260420') =>
    voucher(type, entry('Cash', '-10.00') + entry('Sales - Services', '10.00'), { number, date });

  it('Manual keeps the number and refuses a duplicate with EXCEPTIONS=1 and no LINEERROR', async () => {
    expect(await post(sale('Manual Sales', 'M-7'))).toMatchObject({ created: 1 });
    expect(await post(sale('Manual Sales', 'M-7'))).toMatchObject({ created: 0, exceptions: 1, lineErrors: [] });
    expect((await vouchers()).filter((v) => v.voucherType === 'Manual Sales').map((v) => v.voucherNumber)).toEqual(['M-7']);
  });

  it('Automatic (Manual Override) keeps a sent number and assigns one when none is sent', async () => {
    await post(sale('Override Sales', 'OV-1') + sale('Override Sales'));
    expect((await vouchers()).filter((v) => v.voucherType === 'Override Sales').map((v) => v.voucherNumber)).toEqual(['OV-1', '1']);
  });

  it('Automatic and Multi-user Auto discard the sent number; Auto Renumber follows date order; None stores no number', async () => {
    await post(sale('Auto Sales', 'X-1', '20260420') + sale('Auto Sales', 'X-2', '20260410'));
    const auto = (await vouchers()).filter((v) => v.voucherType === 'Auto Sales');
    expect(auto.map((v) => [v.date, v.voucherNumber])).toEqual([['20260420', '2'], ['20260410', '1']]);
    await post(sale('Shared Sales', 'S-9') + sale('Shared Sales', 'S-9'));
    expect((await vouchers()).filter((v) => v.voucherType === 'Shared Sales').map((v) => v.voucherNumber)).toEqual(['1', '2']);
    await post(voucher('Unnumbered Journal', entry('Office Rent', '-1.00') + entry('Cash', '1.00'), { number: 'J-1' }));
    expect((await vouchers()).filter((v) => v.voucherType === 'Unnumbered Journal').map((v) => v.voucherNumber)).toEqual(['']);
  });
});

describe('REMOTEID, Cancel and Delete', () => {
  const payment = (amount: string, remoteId?: string) => voucher('Payment', entry('Office Rent', `-${amount}`) + entry('HDFC Bank', amount), { remoteId, date: '20260501' });

  it('Create with a known client REMOTEID alters that voucher (CREATED=0 ALTERED=1); readback shows TallyPrime\'s own REMOTEID', async () => {
    expect(await post(payment('10.00', 'client-key-1'))).toMatchObject({ created: 1 });
    const first = (await vouchers()).find((v) => v.remoteId === 'client-key-1');
    expect(await post(payment('20.00', 'client-key-1'))).toMatchObject({ created: 0, altered: 1, lastvchid: first.masterId });
    const after = (await vouchers()).filter((v) => v.remoteId === 'client-key-1');
    expect(after).toHaveLength(1);
    expect(after[0].masterId).toBe(first.masterId);
    expect(after[0].alterId).toBeGreaterThan(first.alterId);
    expect(after[0].ledgerEntries[0].amount).toBe(-20);
    const day = await postXml(t.emulator.xmlUrl, `<ENVELOPE><HEADER><VERSION>1</VERSION><TALLYREQUEST>Export</TALLYREQUEST><TYPE>Data</TYPE><ID>Day Book</ID></HEADER><BODY><DESC><STATICVARIABLES><SVFROMDATE>20260501</SVFROMDATE><SVTODATE>20260501</SVTODATE></STATICVARIABLES></DESC></BODY></ENVELOPE>`);
    expect(day).toContain(`REMOTEID="${first.guid}"`);
    expect(day).not.toContain('client-key-1');
  });

  it('the same voucher sent twice without a REMOTEID is booked twice', async () => {
    const before = (await vouchers()).length;
    await post(payment('33.00'));
    await post(payment('33.00'));
    expect((await vouchers()).length).toBe(before + 2);
  });

  it('Cancel by TAGNAME keeps the voucher, cancelled and stripped (ALTERED=1, CANCELLED=0); Delete removes it (DELETED=1)', async () => {
    await post(voucher('Manual Sales', entry('Cash', '-5.00') + entry('Sales - Services', '5.00'), { number: 'TAG-1', date: '20260801' }));
    await post(voucher('Manual Sales', entry('Cash', '-6.00') + entry('Sales - Services', '6.00'), { number: 'TAG-2', date: '20260801' }));
    const cancel = `<VOUCHER DATE="01-Aug-2026" TAGNAME="VoucherNumber" TAGVALUE="TAG-1" VCHTYPE="Manual Sales" ACTION="Cancel"><NARRATION>cancelled</NARRATION></VOUCHER>`;
    expect(await post(cancel)).toMatchObject({ created: 0, altered: 1, cancelled: 0 });
    const cancelled = (await vouchers()).find((v) => v.voucherNumber === 'TAG-1');
    expect(cancelled).toMatchObject({ isCancelled: true, ledgerEntries: [], narration: 'cancelled' });
    const del = cancel.replace('TAG-1', 'TAG-2').replace('Cancel', 'Delete');
    expect(await post(del)).toMatchObject({ deleted: 1 });
    expect((await vouchers()).some((v) => v.voucherNumber === 'TAG-2')).toBe(false);
    // P002 #16 (books-xml.md §2.3): a Delete that finds no voucher answered ERRORS=1 with this text.
    expect(await post(del)).toMatchObject({ deleted: 0, errors: 1, lineErrors: ['Voucher does not exist!'] });
    expect(await post(cancel.replace('<NARRATION>cancelled</NARRATION>', ''))).toMatchObject({ altered: 0, lineErrors: ['Cannot process &apos;empty&apos; object: VOUCHER!'] });
    expect(await post(cancel.replace('01-Aug-2026', '20260801'))).toMatchObject({ altered: 0, lineErrors: ['Voucher does not exist!'] });
  });

  it('Delete by client REMOTEID removes the voucher; Delete by MASTERID child is an unnamed object', async () => {
    await post(payment('44.00', 'client-key-del'));
    expect(await post(`<VOUCHER REMOTEID="client-key-del" VCHTYPE="Payment" ACTION="Delete"><DATE>20260501</DATE></VOUCHER>`)).toMatchObject({ deleted: 1 });
    expect(await post(`<VOUCHER VCHTYPE="Payment" ACTION="Delete"><MASTERID>1</MASTERID></VOUCHER>`)).toMatchObject({ deleted: 0, lineErrors: ['Cannot delete unnamed object: VOUCHER!'] });
  });
});

describe('identities', () => {
  it('GUID = company GUID + 8 hex of MASTERID, VCHKEY from the day number, one ALTERID sequence, AltMstId/AltVchId', async () => {
    const booked = await vouchers();
    for (const v of booked) {
      expect(v.guid).toBe(`${guid}-${v.masterId.toString(16).padStart(8, '0')}`);
      expect(v.vchKey).toMatch(new RegExp(`^${guid}-[0-9a-f]{8}:[0-9a-f]{8}$`));
    }
    const may1 = booked.find((v) => v.date === '20260501');
    expect(may1.vchKey.split('-').pop().split(':')[0]).toBe((46142).toString(16).padStart(8, '0'));
    const [company] = await control(t.emulator, 'GET', '/companies', 200);
    // Deletes move the sequence too, so the mark can be above every surviving voucher's ALTERID.
    expect(company.altVchId).toBeGreaterThanOrEqual(Math.max(...booked.map((v: any) => v.alterId)));
    const masters = await control(t.emulator, 'GET', `/companies/${guid}/masters`, 200);
    // Separate MASTERID sequences: voucher 1 and some master 1 both exist; one ALTERID sequence above both.
    expect(booked[0].masterId).toBe(1);
    expect(masters.some((m: any) => m.masterId < 100)).toBe(true);
    expect(company.altMstId).toBe(Math.max(...masters.map((m: any) => m.alterId)));
    expect(booked[0].alterId).toBeGreaterThan(company.altMstId - 1);
  });

  it('adding an alias moves ALTERID, not the name', async () => {
    const before = (await control(t.emulator, 'GET', `/companies/${guid}/masters?type=ledger`, 200)).find((m: any) => m.name === 'Office Rent');
    const alter = `<LEDGER NAME="Office Rent" ACTION="Alter"><LANGUAGENAME.LIST><NAME.LIST><NAME>Office Rent</NAME><NAME>Rent</NAME></NAME.LIST><LANGUAGEID>1033</LANGUAGEID></LANGUAGENAME.LIST></LEDGER>`;
    expect(await post(alter)).toMatchObject({ altered: 1 });
    const after = (await control(t.emulator, 'GET', `/companies/${guid}/masters?type=ledger`, 200)).find((m: any) => m.name === 'Office Rent');
    expect(after).toMatchObject({ name: 'Office Rent', aliases: ['Rent'], masterId: before.masterId });
    expect(after.alterId).toBeGreaterThan(before.alterId);
    expect(await post(voucher('Payment', entry('rent', '-1.00') + entry('Cash', '1.00')))).toMatchObject({ created: 1 });
  });
});
