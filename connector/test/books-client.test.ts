// The books client against the emulator over real HTTP: UTF-16 both ways (non-Latin names survive),
// cleaning of the books' `&#4;` markers, one request at a time, a stalled books ending in a timeout
// that says the request may have been received, and close() cutting what the books hold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BooksClient } from '../src/core/books/books-client.js';
import { BooksRequestError } from '../src/core/books/books-errors.js';
import { StreamingCleaner } from '../src/core/books/response-cleaner.js';
import { startTestEmulator, type TestEmulator } from './helpers/test-emulator.js';

let books: TestEmulator;
let company: { guid: string; name: string };

function ledgerImport(companyName: string, name: string): string {
  return (
    '<ENVELOPE><HEADER><TALLYREQUEST>Import Data</TALLYREQUEST></HEADER><BODY><IMPORTDATA><REQUESTDESC>' +
    `<REPORTNAME>All Masters</REPORTNAME><STATICVARIABLES><SVCURRENTCOMPANY>${companyName}</SVCURRENTCOMPANY></STATICVARIABLES>` +
    `</REQUESTDESC><REQUESTDATA><TALLYMESSAGE><LEDGER NAME="${name}" ACTION="Create"><NAME>${name}</NAME><PARENT>Sundry Debtors</PARENT></LEDGER>` +
    '</TALLYMESSAGE></REQUESTDATA></IMPORTDATA></BODY></ENVELOPE>'
  );
}

function ledgerExport(companyName: string): string {
  return (
    '<ENVELOPE><HEADER><VERSION>1</VERSION><TALLYREQUEST>Export</TALLYREQUEST><TYPE>Collection</TYPE><ID>L</ID></HEADER><BODY><DESC>' +
    `<STATICVARIABLES><SVEXPORTFORMAT>$$SysName:XML</SVEXPORTFORMAT><SVCURRENTCOMPANY>${companyName}</SVCURRENTCOMPANY></STATICVARIABLES>` +
    '<TDL><TDLMESSAGE><COLLECTION NAME="L" ISMODIFY="No"><TYPE>Ledger</TYPE><FETCH>Name, Parent</FETCH></COLLECTION></TDLMESSAGE></TDL></DESC></BODY></ENVELOPE>'
  );
}

function groupExport(companyName: string): string {
  return ledgerExport(companyName).replace('<TYPE>Ledger</TYPE>', '<TYPE>Group</TYPE>');
}

beforeAll(async () => {
  books = await startTestEmulator();
  const companies = await books.companies();
  company = companies[0] as { guid: string; name: string };
});

afterAll(async () => {
  await books?.close();
});

describe('books client', () => {
  it('sends UTF-16 so Devanagari and ₹ names survive the round trip', async () => {
    const client = new BooksClient({ url: books.xmlUrl, timeoutMs: 10_000 });
    const name = 'राम ट्रेडर्स ₹ Co';
    const answer = await client.request(ledgerImport(company.name, name), { label: 'import' });
    expect(answer).toMatch(/<CREATED>1<\/CREATED>/);
    const exported = await client.request(ledgerExport(company.name), { label: 'export' });
    expect(exported).toContain(`NAME="${name}"`);
    expect(client.requestCounts()).toEqual({ import: 1, export: 1 });
    client.close();
  });

  it('cleans the &#4; system marker and forbidden characters out of answers', async () => {
    const client = new BooksClient({ url: books.xmlUrl, timeoutMs: 10_000 });
    const exported = await client.request(groupExport(company.name));
    expect(exported).toContain('Primary');
    expect(exported).not.toMatch(/&#0*4;/);
    // eslint-disable-next-line no-control-regex
    expect(exported).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
    client.close();
  });

  it('keeps one request at a time, in order', async () => {
    const client = new BooksClient({ url: books.xmlUrl, timeoutMs: 10_000 });
    const order: number[] = [];
    await Promise.all([1, 2, 3].map((n) => client.request(groupExport(company.name)).then(() => order.push(n))));
    expect(order).toEqual([1, 2, 3]);
    client.close();
  });

  it('gives up on a stalled books with a timeout that says the request may have been received', async () => {
    const client = new BooksClient({ url: books.xmlUrl, timeoutMs: 10_000 });
    await books.control('POST', '/faults', { kind: 'stall-next' });
    const error = await client.request(groupExport(company.name), { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BooksRequestError);
    expect((error as BooksRequestError).kind).toBe('timeout');
    expect((error as BooksRequestError).maybeReceived).toBe(true);
    await books.control('POST', '/faults/clear');
    client.close();
  });

  it('close() cuts a request the books hold (maybe received) and refuses new ones, nothing sent', async () => {
    const client = new BooksClient({ url: books.xmlUrl, timeoutMs: 60_000 });
    await books.control('POST', '/faults', { kind: 'stall-next' });
    let sent!: () => void;
    const onTheWire = new Promise<void>((resolve) => (sent = resolve));
    const held = client.request(groupExport(company.name), { onSent: sent }).catch((e: unknown) => e);
    await onTheWire;
    client.close();
    const cut = (await held) as BooksRequestError;
    expect(cut).toBeInstanceOf(BooksRequestError);
    expect({ kind: cut.kind, maybeReceived: cut.maybeReceived }).toEqual({ kind: 'connection_lost', maybeReceived: true });
    const refused = (await client.request(groupExport(company.name)).catch((e: unknown) => e)) as BooksRequestError;
    expect({ kind: refused.kind, maybeReceived: refused.maybeReceived, message: refused.message }).toEqual({ kind: 'stopping', maybeReceived: false, message: 'the connector is stopping' });
    await books.control('POST', '/faults/clear');
  });

  it('close() also cuts a request still waiting for the connection books dropped and then hung on', async () => {
    const client = new BooksClient({ url: books.xmlUrl, timeoutMs: 60_000 });
    // The books take the import, drop its connection, then hold every request: the export queued behind
    // it goes out as the import fails, looking for a connection while the dropped one is let go.
    await books.control('POST', '/faults', { kind: 'hang-after-import' });
    const imported = client.request(ledgerImport(company.name, `Cut Behind ${Date.now()}`), { label: 'import' });
    const queued = client.request(groupExport(company.name), { readOnly: true }).catch((e: unknown) => e);
    await imported.catch(() => client.close());
    // Cut at once, not after the client's 60 s timeout (the test's own limit is far below it).
    const cut = (await queued) as BooksRequestError;
    expect(cut).toBeInstanceOf(BooksRequestError);
    expect(cut.kind === 'connection_lost' || cut.kind === 'stopping').toBe(true);
    await books.control('POST', '/faults/clear');
  }, 15_000);

  it('reports books that are not running as not running, nothing sent', async () => {
    await books.control('POST', '/books/stop');
    const client = new BooksClient({ url: books.xmlUrl, timeoutMs: 10_000 });
    const error = await client.request(groupExport(company.name)).catch((e: unknown) => e);
    expect((error as BooksRequestError).kind).toBe('not_running');
    expect((error as BooksRequestError).maybeReceived).toBe(false);
    await books.control('POST', '/books/start');
    client.close();
  });
});

describe('response cleaning', () => {
  it('drops the marker with its space, forbidden references and raw controls; keeps tab, CR, LF', () => {
    const cleaner = new StreamingCleaner();
    expect(cleaner.push('<P>&#4; Primary</P><Q>a&#13;&#10;b\u0003c\td&#x1F;</Q>') + cleaner.flush()).toBe('<P>Primary</P><Q>a&#13;&#10;bc\td</Q>');
  });

  it('handles a marker split across chunks', () => {
    const cleaner = new StreamingCleaner();
    const parts = ['<P>&', '#4', ';', ' Primary</P><Q>&#', '4; Any</Q>'].map((p) => cleaner.push(p));
    expect(parts.join('') + cleaner.flush()).toBe('<P>Primary</P><Q>Any</Q>');
  });
});
