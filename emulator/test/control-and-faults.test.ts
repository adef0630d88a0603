// The control API: books stop/start, companies close/open, latency, faults, reset, restart survival.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@ledgerwire/test-kit';
import { startEmulator } from '../src/index.js';
import { collectionRequest, control, counters, entry, importData, postXml, startTestEmulator, voucher, type TestEmulator } from './helpers.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator('demo');
});
afterAll(async () => t.close());

const rent = (amount: string) => voucher('Payment', entry('Office Rent', `-${amount}`) + entry('HDFC Bank', amount));
const vouchers = async (guid: string): Promise<any[]> => control(t.emulator, 'GET', `/companies/${guid}/vouchers`, 200);

function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

describe('control API', () => {
  it('books stop = connection refused on the XML port; start serves again on the same port', async () => {
    await control(t.emulator, 'POST', '/books/stop', 200);
    expect(await connectionRefused(t.emulator.xmlPort)).toBe(true);
    expect((await control(t.emulator, 'GET', '/status', 200)).books).toBe('stopped');
    await control(t.emulator, 'POST', '/books/start', 200);
    expect(await (await fetch(t.emulator.xmlUrl)).text()).toContain('TallyPrime Server is Running');
  });

  it('a closed company is not loaded: gone from the Company collection, named imports fail; open brings it back', async () => {
    const [, services] = await control(t.emulator, 'GET', '/companies', 200);
    await control(t.emulator, 'POST', `/companies/${services.guid}/close`, 200);
    const list = await postXml(t.emulator.xmlUrl, collectionRequest('C', 'Company', 'Name'));
    expect(list).not.toContain(services.name);
    const named = counters(await postXml(t.emulator.xmlUrl, importData(rent('1.00'), services.name)));
    expect(named.lineErrors).toEqual([`Could not set &apos;SVCurrentCompany&apos; to &apos;${services.name}&apos;`]);
    await control(t.emulator, 'POST', `/companies/${services.guid}/open`, 200);
    expect(await postXml(t.emulator.xmlUrl, collectionRequest('C', 'Company', 'Name'))).toContain(services.name);
    await control(t.emulator, 'POST', '/companies/not-a-guid/open', 404);
  });

  it('GET /companies/{guid}/masters lists masters as JSON, by type', async () => {
    const [demo] = await control(t.emulator, 'GET', '/companies', 200);
    const units = await control(t.emulator, 'GET', `/companies/${demo.guid}/masters?type=unit`, 200);
    expect(units.map((u: any) => u.name)).toEqual(['Nos', 'Kgs', 'Box']);
    await control(t.emulator, 'GET', `/companies/${demo.guid}/masters?type=planet`, 400);
  });

  it('latency delays answers; bad bodies are 400 with a message', async () => {
    // Order, not a stopwatch: while the emulator reports the request under way, its answer has not come.
    await control(t.emulator, 'POST', '/latency', 200, { ms: 1_000 });
    let answered = false;
    const answer = fetch(t.emulator.xmlUrl).then(() => (answered = true));
    await eventually('the delayed request to be under way', async () => (await control(t.emulator, 'GET', '/busy', 200)).serving > 0);
    expect(answered).toBe(false);
    await answer;
    await control(t.emulator, 'POST', '/latency', 200, { ms: 0 });
    expect((await control(t.emulator, 'POST', '/latency', 400, { ms: -1 })).error).toMatch(/ms must be/);
    expect((await control(t.emulator, 'POST', '/faults', 400, { kind: 'meteor' })).error).toMatch(/kind must be one of/);
  });

  it('drop-after-import applies the import, then drops the connection before the answer', async () => {
    const [demo] = await control(t.emulator, 'GET', '/companies', 200);
    const before = (await vouchers(demo.guid)).length;
    await control(t.emulator, 'POST', '/faults', 200, { kind: 'drop-after-import' });
    await expect(postXml(t.emulator.xmlUrl, importData(rent('7.00')))).rejects.toThrow();
    expect((await vouchers(demo.guid)).length).toBe(before + 1);
    expect(counters(await postXml(t.emulator.xmlUrl, importData(rent('8.00')))).created).toBe(1);
  });

  it('cut-import-answer applies the import and answers with the first half of its RESPONSE', async () => {
    const [demo] = await control(t.emulator, 'GET', '/companies', 200);
    const before = (await vouchers(demo.guid)).length;
    await control(t.emulator, 'POST', '/faults', 200, { kind: 'cut-import-answer' });
    const cut = await postXml(t.emulator.xmlUrl, importData(rent('7.25')));
    expect(cut).toMatch(/^<RESPONSE>/);
    expect(cut).not.toContain('</RESPONSE>');
    expect((await vouchers(demo.guid)).length).toBe(before + 1);
    expect(await postXml(t.emulator.xmlUrl, importData(rent('8.25')))).toContain('</RESPONSE>');
  });

  it('hang-after-import applies the import, drops the connection, then holds every request until faults/clear', async () => {
    const [demo] = await control(t.emulator, 'GET', '/companies', 200);
    const before = (await vouchers(demo.guid)).length;
    await control(t.emulator, 'POST', '/faults', 200, { kind: 'hang-after-import' });
    await expect(postXml(t.emulator.xmlUrl, importData(rent('7.50')))).rejects.toThrow();
    expect((await vouchers(demo.guid)).length).toBe(before + 1);
    expect((await control(t.emulator, 'GET', '/status', 200)).stalled).toBe(true);
    let answered = false;
    const next = postXml(t.emulator.xmlUrl, importData(rent('8.50'))).then((text) => {
      answered = true;
      return text;
    });
    expect((await vouchers(demo.guid)).length).toBe(before + 1);
    expect(answered).toBe(false);
    await control(t.emulator, 'POST', '/faults/clear', 200);
    expect(counters(await next).created).toBe(1);
    expect((await vouchers(demo.guid)).length).toBe(before + 2);
  });

  it('truncate-export cuts the next export short (STATUS 1 still at the top)', async () => {
    await control(t.emulator, 'POST', '/faults', 200, { kind: 'truncate-export' });
    const cut = await postXml(t.emulator.xmlUrl, collectionRequest('L', 'Ledger', 'Name'));
    expect(cut).toContain('<STATUS>1</STATUS>');
    expect(cut).not.toContain('</ENVELOPE>');
    expect(await postXml(t.emulator.xmlUrl, collectionRequest('L', 'Ledger', 'Name'))).toContain('</ENVELOPE>');
  });

  it('truncate-export with an id waits for an export of that collection, case aside', async () => {
    await control(t.emulator, 'POST', '/faults', 200, { kind: 'truncate-export', id: 'ledgers' });
    expect(await postXml(t.emulator.xmlUrl, collectionRequest('Groups', 'Group', 'Name'))).toContain('</ENVELOPE>');
    expect(await postXml(t.emulator.xmlUrl, collectionRequest('Ledgers', 'Ledger', 'Name'))).not.toContain('</ENVELOPE>');
    expect(await postXml(t.emulator.xmlUrl, collectionRequest('Ledgers', 'Ledger', 'Name'))).toContain('</ENVELOPE>');
    await control(t.emulator, 'POST', '/faults', 400, { kind: 'stall-next', id: 'Ledgers' });
    await control(t.emulator, 'POST', '/faults', 400, { kind: 'truncate-export', id: ' ' });
  });

  it('stall-next hangs the next request until faults/clear', async () => {
    await control(t.emulator, 'POST', '/faults', 200, { kind: 'stall-next' });
    let answered = false;
    const pending = fetch(t.emulator.xmlUrl).then(() => {
      answered = true;
    });
    for (let i = 0; i < 200 && !(await control(t.emulator, 'GET', '/status', 200)).stalled; i += 1) await new Promise((r) => setImmediate(r));
    expect(answered).toBe(false);
    await control(t.emulator, 'POST', '/faults/clear', 200);
    await pending;
    expect(answered).toBe(true);
  });

  it('POST /reset returns to the seed', async () => {
    const companies = await control(t.emulator, 'POST', '/reset', 200, { seed: 'empty' });
    expect(companies.map((c: any) => c.name)).toEqual(['Empty Company']);
    const demo = await control(t.emulator, 'POST', '/reset', 200, { seed: 'demo', vouchers: 5 });
    expect(demo.map((c: any) => c.vouchers)).toEqual([5, 0]);
    expect((await control(t.emulator, 'POST', '/reset', 400, { seed: 'huge' })).error).toMatch(/seed must be one of/);
  });
});

describe('persistence', () => {
  it('the books survive a restart on the same data directory', async () => {
    const first = await startTestEmulator('demo', 20);
    const [before] = await control(first.emulator, 'GET', '/companies', 200);
    expect(before.vouchers).toBe(20);
    await postXml(first.emulator.xmlUrl, importData(rent('12.34'), undefined) + '');
    await first.close();
    const again = await startEmulator({ port: 0, controlPort: 0, dataDir: first.dataDir, seed: 'empty' });
    try {
      const [after] = await control(again, 'GET', '/companies', 200);
      expect(after).toMatchObject({ guid: before.guid, name: before.name, vouchers: 21, altVchId: before.altVchId + 1 });
      const booked = await control(again, 'GET', `/companies/${after.guid}/vouchers`, 200);
      expect(booked[booked.length - 1].ledgerEntries[0]).toEqual({ ledgerName: 'Office Rent', amount: -12.34 });
      expect(counters(await postXml(again.xmlUrl, importData(rent('1.00')))).lastvchid).toBe(22);
    } finally {
      await again.close();
    }
  });
});
