// How the local page explains a job: which voucher or master it is (read from its import XML when the
// list is read, in any script, entities decoded), and a failure's message, then what to do about it.
import { renderMasterImport, renderVoucherImport } from '@ledgerwire/shared';
import { describe, expect, it } from 'vitest';
import { explainJob } from '../src/core/service/job-view.js';
import { JobStore, type StoredJob } from '../src/core/state/job-store.js';
import { openLocalDatabase } from '../src/core/state/local-database.js';
import { journalDocument, ledgerJob, voucherJob } from './helpers/job-fixtures.js';
import { tempDataDir } from './helpers/test-emulator.js';

const job: StoredJob = {
  seq: 1, jobId: 'job-1', companyId: 1, booksCompanyGuid: 'guid', booksCompanyName: 'Ledgerwire Demo Traders', jobType: 'voucher',
  eventType: 'receipt.create', remoteId: 'job-1', booksVoucherGuid: null, attempt: 1, state: 'settled', outcome: null,
  reported: true, receivedAt: '2026-11-25T10:00:00.000Z', updatedAt: '2026-11-25T10:00:01.000Z',
};

describe('job explanations', () => {
  it('a voucher type of another kind: nothing was imported, and the sender must change the type', () => {
    const message = 'The voucher type "Payment" derives from Payment in the books: it would be booked as a payment, not a receipt. Use a voucher type of the receipt kind. Nothing was imported.';
    const view = explainJob({ ...job, outcome: { status: 'failed', error_code: 'VOUCHER_TYPE_MISMATCH', error_label: 'Voucher type of another kind', error_message: message } });
    expect(view).toMatchObject({ state: 'failed', errorCode: 'VOUCHER_TYPE_MISMATCH' });
    expect(view.explanation).toBe(`${message} — The voucher names a voucher type of another kind (a payment type on a receipt, say), which TallyPrime would book as that kind; nothing was imported. The sending program must use a voucher type of the right kind.`);
  });

  it('a code without advice of its own gets the general one', () => {
    const view = explainJob({ ...job, outcome: { status: 'failed', error_code: 'SOMETHING_NEW', error_label: 'x', error_message: 'The books said no.' } as never });
    expect(view.explanation).toBe('The books said no. — TallyPrime refused the voucher; the message says why.');
  });
});

describe('which voucher or master a job is', () => {
  const companyName = 'Ledgerwire Demo Traders';

  it('names a voucher by its type and number, in any script, with XML entities decoded', () => {
    const document = { ...journalDocument('बिल/१७ <A&B>'), voucher_type: 'பற்று & வரவு' };
    const xml = renderVoucherImport(document, { companyName, remoteId: 'job-1', voucherKind: 'journal' });
    expect(xml).toContain('<VOUCHERNUMBER>बिल/१७ &lt;A&amp;B&gt;</VOUCHERNUMBER>');
    expect(explainJob(job, xml).subject).toBe('பற்று & வரவு no. बिल/१७ <A&B>');
  });

  it('names a master by its kind and name, and a rename by both names', () => {
    const ledger = renderMasterImport('ledger', { name: 'राम & सन्स "मुंबई"', parent: 'Sundry Debtors' }, { companyName });
    const master = { ...job, jobType: 'master' as const, eventType: 'ledger.create' };
    expect(explainJob(master, ledger).subject).toBe('ledger "राम & सन्स "मुंबई""');
    const item = renderMasterImport('stock_item', { name: 'திருகு 12mm', parent: 'Primary', base_units: 'Nos' }, { companyName });
    expect(explainJob(master, item).subject).toBe('stock item "திருகு 12mm"');
    const renamed = renderMasterImport('ledger', { name: 'Ram & Sons (Pune)', parent: 'Sundry Debtors' }, { companyName, action: 'Alter', currentName: 'Ram & Sons' });
    expect(explainJob(master, renamed).subject).toBe('ledger "Ram & Sons (Pune)" (was "Ram & Sons")');
  });

  it('says what it can when the XML has no number, and nothing when it names neither', () => {
    const typeOnly = '<ENVELOPE><BODY><VOUCHER VCHTYPE="Receipt &amp; Refund" ACTION="Create"><DATE>20260415</DATE></VOUCHER></BODY></ENVELOPE>';
    expect(explainJob(job, typeOnly).subject).toBe('Receipt & Refund (no number)');
    expect(explainJob(job, '<ENVELOPE/>').subject).toBeNull();
    expect(explainJob(job).subject).toBeNull();
  });

  it('reads the XML with the recent list, newest first', () => {
    const db = openLocalDatabase(tempDataDir());
    try {
      const jobs = new JobStore(db);
      const company = { guid: 'guid', name: companyName };
      jobs.receive([voucherJob(company, journalDocument('JV/ஏப்/7')), ledgerJob(company, 'शर्मा & Co')]);
      const listed = jobs.recent(10).map((stored) => explainJob(stored, stored.xml));
      expect(listed.map((view) => view.subject)).toEqual(['ledger "शर्मा & Co"', 'Journal no. JV/ஏப்/7']);
    } finally {
      db.close();
    }
  });
});

describe('a voucher job row: type, number, date, party and amount from the XML sent', () => {
  const companyName = 'Ledgerwire Demo Traders';

  it('reads the party and its entry as the amount, entities decoded, in any script', () => {
    const document = { ...journalDocument('बिल/१७', 'Office Rent', 118000.5), party_ledger: 'राम & सन्स <Pune>', ledger_entries: [
      { ledger_name: 'राम & सन्स <Pune>', amount: 118000.5, is_debit: true },
      { ledger_name: 'Sales', amount: 100000, is_debit: false },
      { ledger_name: 'Output GST', amount: 18000.5, is_debit: false },
    ] };
    const xml = renderVoucherImport(document, { companyName, remoteId: 'job-1', voucherKind: 'journal' });
    expect(explainJob(job, xml).voucher).toEqual({ voucherType: 'Journal', voucherNumber: 'बिल/१७', date: '2026-04-15', party: 'राम & सन्स <Pune>', amount: '118000.50' });
  });

  it('adds up the debits when the party has no entry of its own, leaving nested allocations out', () => {
    const xml = renderVoucherImport({ ...journalDocument('JV/9', 'Office Rent', 75.25), party_ledger: 'Someone Else' }, { companyName, remoteId: 'job-1', voucherKind: 'journal' });
    expect(explainJob(job, xml).voucher?.amount).toBe('75.25');
    const withBills = '<VOUCHER VCHTYPE="Receipt"><DATE>20260401</DATE><VOUCHERNUMBER>R/1</VOUCHERNUMBER><PARTYLEDGERNAME>Ram</PARTYLEDGERNAME>'
      + '<ALLLEDGERENTRIES.LIST><LEDGERNAME>Ram</LEDGERNAME><BILLALLOCATIONS.LIST><NAME>INV-1</NAME><AMOUNT>999.00</AMOUNT></BILLALLOCATIONS.LIST><AMOUNT>500.00</AMOUNT></ALLLEDGERENTRIES.LIST>'
      + '<ALLLEDGERENTRIES.LIST><LEDGERNAME>Cash</LEDGERNAME><AMOUNT>-500.00</AMOUNT></ALLLEDGERENTRIES.LIST></VOUCHER>';
    expect(explainJob(job, withBills).voucher).toEqual({ voucherType: 'Receipt', voucherNumber: 'R/1', date: '2026-04-01', party: 'Ram', amount: '500.00' });
  });

  it('has no voucher facts for a master, and says what it lacks as null', () => {
    const ledger = renderMasterImport('ledger', { name: 'Ram', parent: 'Sundry Debtors' }, { companyName });
    expect(explainJob({ ...job, jobType: 'master', eventType: 'ledger.create' }, ledger).voucher).toBeNull();
    expect(explainJob(job, '<ENVELOPE><VOUCHER VCHTYPE="Sales"></VOUCHER></ENVELOPE>').voucher).toEqual({ voucherType: 'Sales', voucherNumber: null, date: null, party: null, amount: null });
    expect(explainJob(job).voucher).toBeNull();
  });
});

describe('why a job waits', () => {
  const waiting: StoredJob = { ...job, state: 'queued', outcome: null, reported: false };
  const open = [{ guid: 'guid', name: 'Ledgerwire Demo Traders' }];
  const fine = { booksRunning: true, openCompanies: open, runnerWaiting: null, relayOnline: true } as const;

  it('names what holds it back: TallyPrime, its company, the books refusing, or nothing', () => {
    expect(explainJob(waiting, null, { ...fine, booksRunning: false })).toMatchObject({
      state: 'waiting',
      waitingReason: 'TallyPrime is not running (or its XML server is off). Start it and this job runs.',
      explanation: 'TallyPrime is not running (or its XML server is off). Start it and this job runs.',
    });
    expect(explainJob(waiting, null, { ...fine, openCompanies: [] }).waitingReason).toBe('"Ledgerwire Demo Traders" is not open in TallyPrime. Open it and this job runs.');
    // A company re-created in the books (new GUID, same name) still counts as open.
    expect(explainJob(waiting, null, { ...fine, openCompanies: [{ guid: 'other', name: 'Ledgerwire Demo Traders' }] }).waitingReason).toBeNull();
    expect(explainJob(waiting, null, { ...fine, runnerWaiting: 'a dialog is open in TallyPrime' }).waitingReason).toBe('TallyPrime did not take it yet: a dialog is open in TallyPrime.');
    expect(explainJob(waiting, null, fine)).toMatchObject({ waitingReason: null, explanation: 'Waiting for its turn in TallyPrime.' });
  });

  it('for a result not yet reported, names the relay; a job being imported waits for nothing', () => {
    const done: StoredJob = { ...job, reported: false, outcome: { status: 'completed', books_voucher_guid: 'g-1' } as never };
    expect(explainJob(done, null, { ...fine, relayOnline: false }).waitingReason).toBe('The relay cannot be reached: the result is kept here and sent when it is back.');
    expect(explainJob(done, null, fine).waitingReason).toBeNull();
    expect(explainJob({ ...waiting, state: 'importing' }, null, { ...fine, booksRunning: false }).waitingReason).toBeNull();
  });
});
