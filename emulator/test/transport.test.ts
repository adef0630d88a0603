// The XML port as TallyPrime's: banner, charset mirroring, unknown requests, one request at a time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionRequest, control, postXml, startTestEmulator, type TestEmulator } from './helpers.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator('demo');
});
afterAll(async () => t.close());

const UNKNOWN = '<RESPONSE>Unknown Request, cannot be processed</RESPONSE>\r\n';

describe('XML port', () => {
  it('answers GET / with the 51-byte banner, and GET /status the same', async () => {
    for (const route of ['/', '/status']) {
      const response = await fetch(`${t.emulator.xmlUrl}${route}`);
      expect(response.status).toBe(200);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.toString('latin1')).toBe('<RESPONSE>TallyPrime Server is Running</RESPONSE>\r\n');
      expect(bytes.length).toBe(51);
    }
  });

  it('mirrors UTF-16LE: a UTF-16 request with charset=utf-16 gets a BOM-less UTF-16LE answer with Unicode intact', async () => {
    await postXml(t.emulator.xmlUrl, `<ENVELOPE><HEADER><TALLYREQUEST>Import Data</TALLYREQUEST></HEADER><BODY><IMPORTDATA><REQUESTDESC><REPORTNAME>All Masters</REPORTNAME></REQUESTDESC><REQUESTDATA><TALLYMESSAGE><LEDGER NAME="एप्सिलॉन ट्रेडर्स" ACTION="Create"><NAME>एप्सिलॉन ट्रेडर्स</NAME><PARENT>Sundry Debtors</PARENT></LEDGER></TALLYMESSAGE></REQUESTDATA></IMPORTDATA></BODY></ENVELOPE>`, 'text/xml; charset=utf-8');
    const request = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(collectionRequest('L', 'Ledger', 'Name', { filters: 'F', formulae: '<SYSTEM TYPE="Formulae" NAME="F">$Parent = "Sundry Debtors"</SYSTEM>' }), 'utf16le')]);
    const response = await fetch(t.emulator.xmlUrl, { method: 'POST', body: request, headers: { 'Content-Type': 'text/xml; charset=utf-16' } });
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes[0]).not.toBe(0xff);
    expect(bytes.toString('utf16le')).toContain('एप्सिलॉन ट्रेडर्स');
    const ascii = await postXml(t.emulator.xmlUrl, collectionRequest('L', 'Ledger', 'Name', { filters: 'F', formulae: '<SYSTEM TYPE="Formulae" NAME="F">$Parent = "Sundry Debtors"</SYSTEM>' }));
    expect(ascii).toContain(`<NAME TYPE="String">${'एप्सिलॉन ट्रेडर्स'.replace(/[\u0100-\uffff]/g, '?')}</NAME>`);
    expect(ascii).not.toMatch(/[\u0100-\uffff]/);
  });

  it('answers UTF-16 without the charset, malformed XML, a raw & and an unknown TALLYREQUEST with Unknown Request', async () => {
    const utf16 = Buffer.from('<ENVELOPE><HEADER><TALLYREQUEST>Export</TALLYREQUEST></HEADER></ENVELOPE>', 'utf16le');
    const response = await fetch(t.emulator.xmlUrl, { method: 'POST', body: utf16, headers: { 'Content-Type': 'text/xml' } });
    expect(await response.text()).toBe(UNKNOWN);
    expect(await postXml(t.emulator.xmlUrl, '<ENVELOPE><HEADER>')).toBe(UNKNOWN);
    expect(await postXml(t.emulator.xmlUrl, '<ENVELOPE><HEADER><TALLYREQUEST>Import Data</TALLYREQUEST></HEADER><BODY><IMPORTDATA><REQUESTDATA><TALLYMESSAGE><GROUP NAME="Duties & Taxes"/></TALLYMESSAGE></REQUESTDATA></IMPORTDATA></BODY></ENVELOPE>')).toBe(UNKNOWN);
    expect(await postXml(t.emulator.xmlUrl, '<ENVELOPE><HEADER><TALLYREQUEST>Fetch Everything</TALLYREQUEST></HEADER></ENVELOPE>')).toBe(UNKNOWN);
    // `Load Company` is a verb TallyPrime knows: STATUS 0 with an empty DATA (bridge TALLY_PROTOCOL_REFERENCE §12a.7).
    expect(await postXml(t.emulator.xmlUrl, '<ENVELOPE><HEADER><TALLYREQUEST>Load Company</TALLYREQUEST></HEADER></ENVELOPE>')).toMatch(/<STATUS>0<\/STATUS>/);
  });

  it('serves one request at a time: a stalled request holds back the next, even the banner', async () => {
    await control(t.emulator, 'POST', '/faults', 200, { kind: 'stall-next' });
    const order: string[] = [];
    const first = postXml(t.emulator.xmlUrl, collectionRequest('C', 'Company', 'Name')).then(() => order.push('export'));
    for (let i = 0; i < 200 && !(await control(t.emulator, 'GET', '/status', 200)).stalled; i += 1) await new Promise((r) => setImmediate(r));
    const banner = fetch(t.emulator.xmlUrl).then(() => order.push('banner'));
    await control(t.emulator, 'GET', '/status', 200);
    expect(order).toEqual([]);
    await control(t.emulator, 'POST', '/faults/clear', 200);
    await Promise.all([first, banner]);
    expect(order).toEqual(['export', 'banner']);
  });
});
