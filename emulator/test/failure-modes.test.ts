// TallyPrime's failure modes: requests it answers with a modal dialog (no HTTP answer; the gateway serves
// nobody until someone clicks OK) or a crash (the connection drops with no reply; the port goes away), and
// the control API switching those on for one company. Sources are named per test; the evidence table is
// emulator/evidence/exports-and-failures.md. No sleeps: the tests watch the control API, which reports
// the open dialog and the requests waiting, and abort their own requests.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectionRequest, control, counters, entry, importData, postXml, startTestEmulator, voucher, type TestEmulator } from './helpers.js';

let t: TestEmulator;
beforeEach(async () => {
  t = await startTestEmulator('demo');
});
afterEach(async () => t.close());

/** Polls the control API (each poll is a real HTTP round trip) until the status satisfies `ready`. */
async function statusWhen(ready: (status: any) => boolean): Promise<any> {
  for (let i = 0; i < 500; i += 1) {
    const status = await control(t.emulator, 'GET', '/status', 200);
    if (ready(status)) return status;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('the emulator never reached the expected state');
}

/** A request that records whether (and how) it was answered. */
function watch(url: string, init?: RequestInit): { answered: () => boolean; outcome: Promise<{ text?: string; error?: Error }> } {
  let done = false;
  const outcome = fetch(url, init)
    .then(async (response) => ({ text: await response.text() }))
    .catch((error: Error) => ({ error }))
    .finally(() => {
      done = true;
    });
  return { answered: () => done, outcome };
}

const post = (xml: string, signal?: AbortSignal): RequestInit => ({ method: 'POST', body: xml, headers: { 'Content-Type': 'text/xml' }, ...(signal ? { signal } : {}) });
const rent = (amount: string, company?: string) => importData(voucher('Payment', entry('Office Rent', `-${amount}`) + entry('HDFC Bank', amount)), company);

describe('modal dialogs: the gateway serves nobody until the dialog is dismissed', () => {
  it('an unknown collection TYPE raises "Incorrect Object Type!" and holds every caller, the banner too (bridge IMPLEMENTATION_GUIDE §5.3a; Tally-MCP probe-findings-2026-08-14 §1)', async () => {
    const bad = watch(t.emulator.xmlUrl, post(collectionRequest('Lines', 'Voucher.AllLedgerEntries', 'Amount')));
    const status = await statusWhen((s) => s.dialog !== null);
    expect(status.dialog.text).toBe('Internal Error. Contact Tally Solutions. Incorrect Object Type!');
    const banner = watch(t.emulator.xmlUrl);
    await statusWhen((s) => s.waiting === 2);
    expect(bad.answered()).toBe(false);
    expect(banner.answered()).toBe(false);
    const cleared = await control(t.emulator, 'POST', '/faults/clear', 200);
    expect(cleared.dismissed.text).toContain('Incorrect Object Type!');
    expect((await banner.outcome).text).toContain('TallyPrime Server is Running');
    // What TallyPrime sends the request that raised the dialog after the click is not recorded: no answer.
    expect((await bad.outcome).error).toBeInstanceOf(Error);
    expect(await postXml(t.emulator.xmlUrl, collectionRequest('L', 'Ledger', 'Name'))).toContain('<STATUS>1</STATUS>');
  });

  it('a client that gives up is not answered before its own timeout and is forgotten; the dialog stays until dismissed (Tally-MCP probe-findings §1: "accepts HTTP connections but serves nothing")', async () => {
    const abort = new AbortController();
    const bad = watch(t.emulator.xmlUrl, post(collectionRequest('X', 'NoSuchTypeXyz', 'Name'), abort.signal));
    await statusWhen((s) => s.dialog !== null && s.waiting === 1);
    expect(bad.answered()).toBe(false);
    abort.abort();
    expect((await bad.outcome).error?.name).toBe('AbortError');
    const status = await statusWhen((s) => s.waiting === 0);
    expect(status.dialog.text).toContain('Incorrect Object Type!');
    await control(t.emulator, 'POST', '/faults/clear', 200);
    expect((await control(t.emulator, 'GET', '/status', 200)).dialog).toBeNull();
    expect(await (await fetch(t.emulator.xmlUrl)).text()).toContain('TallyPrime Server is Running');
  });

  it('a short client timeout fires with no answer (AbortSignal.timeout), and the books recover once dismissed', async () => {
    const outcome = await fetch(t.emulator.xmlUrl, post(collectionRequest('X', 'EditLog', 'Name'), AbortSignal.timeout(300))).then(
      () => 'answered',
      (error: Error) => error.name,
    );
    expect(outcome).toBe('TimeoutError');
    await control(t.emulator, 'POST', '/faults/clear', 200);
    expect(await postXml(t.emulator.xmlUrl, collectionRequest('G', 'Group', 'Name'))).toContain('<GROUP NAME=');
  });

  it('a collection ID with no definition raises "Could not find description!", and TallyPrime exits once it is dismissed (Tally-MCP known-limitations.md)', async () => {
    const bad = watch(t.emulator.xmlUrl, post(collectionRequest('Ledgers', 'Ledger', 'Name').replace('NAME="Ledgers"', 'NAME="Other"')));
    const status = await statusWhen((s) => s.dialog !== null);
    expect(status.dialog).toMatchObject({ text: "Error in TDL. 'Collection:Ledgers' Could not find description!", exitsOnDismiss: true });
    await control(t.emulator, 'POST', '/faults/clear', 200);
    expect((await bad.outcome).error).toBeInstanceOf(Error);
    expect((await statusWhen((s) => s.books === 'stopped')).books).toBe('stopped');
    await expect(fetch(t.emulator.xmlUrl)).rejects.toThrow();
    await control(t.emulator, 'POST', '/books/start', 200);
    expect(await (await fetch(t.emulator.xmlUrl)).text()).toContain('TallyPrime Server is Running');
  });

  it('a FILTER naming a formula the request does not define raises the same kind of dialog (by analogy, no capture)', async () => {
    const bad = watch(t.emulator.xmlUrl, post(collectionRequest('L', 'Ledger', 'Name', { filters: 'Nope' })));
    expect((await statusWhen((s) => s.dialog !== null)).dialog.text).toBe("Error in TDL. 'Formula:Nope' Could not find description!");
    expect(bad.answered()).toBe(false);
    await control(t.emulator, 'POST', '/faults/clear', 200);
    await bad.outcome;
  });

  it('stopping the books closes the dialog with them (a killed TallyPrime shows no dialog), and queued work is dropped', async () => {
    const [demo] = await control(t.emulator, 'GET', '/companies', 200);
    const before = (await control(t.emulator, 'GET', `/companies/${demo.guid}/vouchers`, 200)).length;
    const bad = watch(t.emulator.xmlUrl, post(collectionRequest('X', 'NoSuchTypeXyz', 'Name')));
    await statusWhen((s) => s.dialog !== null);
    const queued = watch(t.emulator.xmlUrl, post(rent('5.00')));
    await statusWhen((s) => s.waiting === 2);
    await control(t.emulator, 'POST', '/books/stop', 200);
    expect((await bad.outcome).error).toBeInstanceOf(Error);
    expect((await queued.outcome).error).toBeInstanceOf(Error);
    await control(t.emulator, 'POST', '/books/start', 200);
    expect((await control(t.emulator, 'GET', '/status', 200)).dialog).toBeNull();
    expect((await control(t.emulator, 'GET', `/companies/${demo.guid}/vouchers`, 200)).length).toBe(before);
  });
});

describe('crashes: the connection drops with no reply and the port goes away', () => {
  it('$$InDateRange in a collection filter crashes TallyPrime (tally_agent LESSONS.md §3, TallyPrime 7.0)', async () => {
    const formula = '<SYSTEM TYPE="Formulae" NAME="InApril">$$InDateRange:$Date:##SVFromDate:##SVToDate</SYSTEM>';
    await expect(postXml(t.emulator.xmlUrl, collectionRequest('V', 'Voucher', 'Date', { filters: 'InApril', formulae: formula }))).rejects.toThrow();
    const status = await control(t.emulator, 'GET', '/status', 200);
    expect(status).toMatchObject({ books: 'stopped', lastSilence: { kind: 'crash' } });
    await expect(fetch(t.emulator.xmlUrl)).rejects.toThrow();
    await control(t.emulator, 'POST', '/books/start', 200);
    expect(await postXml(t.emulator.xmlUrl, collectionRequest('L', 'Ledger', 'Name'))).toContain('<STATUS>1</STATUS>');
  });

  it('<UNIT NAME="…" ACTION="Delete"> crashes TallyPrime and nothing is applied; without the NAME attribute it is answered (tally_agent write-exploration-v4 "Crash signature isolation")', async () => {
    const [demo] = await control(t.emulator, 'GET', '/companies', 200);
    expect(await postXml(t.emulator.xmlUrl, importData('<UNIT ACTION="Delete"><NAME>Box</NAME></UNIT>'))).toContain('</RESPONSE>');
    await expect(postXml(t.emulator.xmlUrl, importData('<UNIT NAME="Box" ACTION="Delete"><NAME>Box</NAME></UNIT>'))).rejects.toThrow();
    expect((await control(t.emulator, 'GET', '/status', 200)).books).toBe('stopped');
    await control(t.emulator, 'POST', '/books/start', 200);
    const units = await control(t.emulator, 'GET', `/companies/${demo.guid}/masters?type=unit`, 200);
    expect(units.map((u: any) => u.name)).toContain('Box');
  });
});

describe('per-company faults through the control API', () => {
  it('modal-dialog: a request for that company hangs unapplied and holds everyone; clearing it lets the queue go', async () => {
    const [demo, services] = await control(t.emulator, 'GET', '/companies', 200);
    await control(t.emulator, 'POST', `/companies/${demo.guid}/faults`, 200, { kind: 'modal-dialog' });
    expect((await control(t.emulator, 'GET', '/status', 200)).companyFaults).toEqual([{ guid: demo.guid.toLowerCase(), kind: 'modal-dialog' }]);
    const before = (await control(t.emulator, 'GET', `/companies/${demo.guid}/vouchers`, 200)).length;
    const held = watch(t.emulator.xmlUrl, post(rent('11.00')));
    expect((await statusWhen((s) => s.dialog !== null)).dialog.companyGuid).toBe(demo.guid);
    const other = watch(t.emulator.xmlUrl, post(importData(voucher('Payment', entry('Office Rent', '-2.00') + entry('ICICI Bank', '2.00')), services.name)));
    await statusWhen((s) => s.waiting === 2);
    expect(other.answered()).toBe(false);
    const cleared = await control(t.emulator, 'POST', `/companies/${demo.guid}/faults/clear`, 200);
    expect(cleared.dismissed.companyGuid).toBe(demo.guid);
    expect(counters((await other.outcome).text ?? '').created).toBe(1);
    expect((await held.outcome).error).toBeInstanceOf(Error);
    expect((await control(t.emulator, 'GET', `/companies/${demo.guid}/vouchers`, 200)).length).toBe(before);
    expect(counters(await postXml(t.emulator.xmlUrl, rent('12.00'))).created).toBe(1);
  });

  it('crash: the next request for that company drops with no reply and stops the books; after a start the fault is gone', async () => {
    const [demo, services] = await control(t.emulator, 'GET', '/companies', 200);
    await control(t.emulator, 'POST', `/companies/${demo.guid}/faults`, 200, { kind: 'crash' });
    // Another company's requests are served as usual.
    expect(counters(await postXml(t.emulator.xmlUrl, importData(voucher('Payment', entry('Office Rent', '-3.00') + entry('ICICI Bank', '3.00')), services.name))).created).toBe(1);
    await expect(postXml(t.emulator.xmlUrl, collectionRequest('L', 'Ledger', 'Name', { company: demo.name }))).rejects.toThrow();
    expect((await control(t.emulator, 'GET', '/status', 200)).books).toBe('stopped');
    await control(t.emulator, 'POST', '/books/start', 200);
    expect(await postXml(t.emulator.xmlUrl, collectionRequest('L', 'Ledger', 'Name', { company: demo.name }))).toContain('<STATUS>1</STATUS>');
  });

  it('bad bodies are 400, unknown companies 404', async () => {
    const [demo] = await control(t.emulator, 'GET', '/companies', 200);
    expect((await control(t.emulator, 'POST', `/companies/${demo.guid}/faults`, 400, { kind: 'meteor' })).error).toMatch(/kind must be one of modal-dialog, crash/);
    await control(t.emulator, 'POST', '/companies/not-a-guid/faults', 404, { kind: 'crash' });
    expect((await control(t.emulator, 'POST', `/companies/${demo.guid}/faults/clear`, 200)).dismissed).toBeNull();
  });
});
