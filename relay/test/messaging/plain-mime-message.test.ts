// The outbox's direct RFC 5322 composition (plain-mime-message.ts) against nodemailer's for the same
// email: the same headers in the same order and the same MIME structure, the parts decoding to the
// same text; and the emails it does not cover are left to nodemailer.
import { describe, expect, it } from 'vitest';
import type { OutgoingEmail } from '../../src/messaging/services/providers/email-provider.js';
import { composeRfc5322, composeWithNodemailer, rfcMessageId } from '../../src/messaging/services/providers/mime-message.js';
import { composePlainRfc5322 } from '../../src/messaging/services/providers/plain-mime-message.js';

const base: OutgoingEmail = {
  messageId: 'msg_0123456789abcdef',
  tenantId: 'ten_1',
  from: 'Ledgerwire <no-reply@ledgerwire.localhost>',
  to: 'ada@example.com',
  subject: 'Your invoice INV-1',
  html: '<p>Hello Ada, invoice INV-1 for 120.00 is ready.</p>',
  text: 'Hello Ada, invoice INV-1 for 120.00 is ready.',
};

type Parsed = { headers: [string, string][]; parts: { headers: [string, string][]; body: string }[] };

/** A small RFC 5322 / MIME reader: unfolded headers in order, and each part's decoded body. */
function parse(raw: string): Parsed {
  const split = (text: string) => {
    const at = text.indexOf('\r\n\r\n');
    const head = text.slice(0, at).replace(/\r\n[ \t]+/g, ' ');
    const headers = head.split('\r\n').map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon), line.slice(colon + 1).trim()] as [string, string];
    });
    return { headers, body: text.slice(at + 4) };
  };
  const decode = (headers: [string, string][], body: string) => {
    const encoding = headers.find(([name]) => name.toLowerCase() === 'content-transfer-encoding')?.[1];
    for (const line of body.split('\r\n')) expect(line.length).toBeLessThanOrEqual(encoding === 'quoted-printable' ? 76 : 998);
    if (encoding === 'base64') return Buffer.from(body, 'base64').toString('utf8');
    if (encoding !== 'quoted-printable') return body;
    const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => `%${hex}`);
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/g, '%25'));
  };
  const { headers, body } = split(raw);
  const type = headers.find(([name]) => name === 'Content-Type')![1];
  const boundary = /boundary="([^"]+)"/.exec(type)?.[1];
  if (boundary === undefined) return { headers, parts: [{ headers: [], body: decode(headers, body.replace(/\r\n$/, '')) }] };
  const sections = body.split(`--${boundary}`);
  expect(sections.at(-1)).toBe('--\r\n');
  const parts = sections.slice(1, -1).map((section) => {
    const part = split(section.replace(/^\r\n/, ''));
    return { headers: part.headers, body: decode(part.headers, part.body.replace(/\r\n$/, '')) };
  });
  return { headers, parts };
}

/** Both compositions, parsed, with the parts that differ by design (Date, boundary) set aside. */
async function both(email: OutgoingEmail) {
  const date = new Date('2026-11-25T17:44:39Z');
  const plain = composePlainRfc5322(email, rfcMessageId(email), date);
  expect(plain).toBeDefined();
  const normalise = (parsed: Parsed) => ({
    ...parsed,
    headers: parsed.headers.map(([name, value]): [string, string] => [name, name === 'Date' ? '(date)' : value.replace(/boundary="[^"]+"/, 'boundary="(b)"')]),
  });
  expect(plain!.toString('utf8')).not.toMatch(/[^\r]\n/); // CRLF line ends only
  const ours = normalise(parse(plain!.toString('utf8')));
  // nodemailer leaves bare LFs inside its quoted-printable parts; read as line ends all the same.
  const theirs = normalise(parse((await composeWithNodemailer(email)).toString('utf8').replace(/\r?\n/g, '\r\n')));
  return { ours, theirs, raw: plain!.toString('utf8') };
}

describe('plain RFC 5322 composition', () => {
  it('writes a text and HTML message as nodemailer does', async () => {
    const { ours, theirs, raw } = await both(base);
    expect(ours).toEqual(theirs);
    expect(raw).toMatch(/^Date: Wed, 25 Nov 2026 17:44:39 \+0000\r$/m);
    expect(raw).toMatch(/^Content-Transfer-Encoding: 7bit\r$/m);
  });

  it('writes a single-part message (HTML only, or text only) as nodemailer does', async () => {
    for (const email of [{ ...base, text: null }, { ...base, text: '' }, { ...base, html: '' }]) {
      const { ours, theirs } = await both(email);
      expect(ours).toEqual(theirs);
    }
  });

  // nodemailer sends a mostly non-ASCII part as base64; quoted-printable serves as well and stays readable.
  it('encodes non-ASCII text, long lines, control characters, "=" and trailing spaces as quoted-printable that decodes to the text', async () => {
    const text = `Grüße aus Köln — ₹ 1,20,000.00 = paid \t\nnext line \n${'a long line of words '.repeat(12)}\n${'x'.repeat(200)}\r\nend\u0007=`;
    const html = `<p>${'€'.repeat(80)}</p>\n<p>plain</p>`;
    const { ours, theirs, raw } = await both({ ...base, text, html });
    expect(ours.headers).toEqual(theirs.headers);
    // Line ends as text: nodemailer's base64 part keeps the bare LFs it was given.
    const bodies = (parsed: Parsed) => parsed.parts.map((p) => p.body.replace(/\r\n/g, '\n'));
    expect(bodies(ours)).toEqual(bodies(theirs));
    expect(bodies(ours)).toEqual([text.replace(/\r\n/g, '\n'), html]);
    expect(ours.parts.map((p) => p.headers)).toEqual([
      [['Content-Type', 'text/plain; charset=utf-8'], ['Content-Transfer-Encoding', 'quoted-printable']],
      [['Content-Type', 'text/html; charset=utf-8'], ['Content-Transfer-Encoding', 'quoted-printable']],
    ]);
    expect(raw).not.toMatch(/[ \t]\r\n/); // no whitespace left at a line end
  });

  it('keeps named and bare addresses as nodemailer writes them', async () => {
    for (const from of ['billing@acme.test', 'Acme Billing <billing@acme.test>', '  Acme   <billing@acme.test> ']) {
      const { ours, theirs } = await both({ ...base, from, to: 'Ada Lovelace <ada@example.com>' });
      expect(ours).toEqual(theirs);
    }
  });

  it('leaves to nodemailer what needs encoded words, quoting, folding or no body at all', async () => {
    const cases: OutgoingEmail[] = [
      { ...base, subject: 'Rechnung für Jürgen' },
      { ...base, subject: `A subject long enough to need folding ${'x'.repeat(60)}` },
      { ...base, subject: 'line\r\nBcc: someone@example.com' },
      { ...base, from: 'Acme, Inc. <billing@acme.test>' },
      { ...base, from: 'Jürgen <j@example.de>' },
      { ...base, to: 'j@exämple.de' },
      { ...base, html: '', text: null },
    ];
    for (const email of cases) {
      expect(composePlainRfc5322(email, rfcMessageId(email), new Date())).toBeUndefined();
      // Still composed, by nodemailer, with no header broken across lines by the input.
      const raw = (await composeRfc5322(email)).toString('utf8');
      expect(raw).not.toMatch(/^Bcc:/m);
    }
  });

  it('gives every multipart message its own boundary, one the content does not contain', () => {
    const boundaries = new Set<string>();
    for (let i = 0; i < 100; i++) {
      const raw = composePlainRfc5322(base, rfcMessageId(base), new Date())!.toString('utf8');
      boundaries.add(/boundary="([^"]+)"/.exec(raw)![1]!);
    }
    expect(boundaries.size).toBe(100);
    const next = /boundary="--_LwP-([0-9a-f]+)-([0-9a-z]+)"/.exec(composePlainRfc5322(base, rfcMessageId(base), new Date())!.toString('utf8'))!;
    const following = `--_LwP-${next[1]}-${(parseInt(next[2]!, 36) + 1).toString(36)}`;
    expect(composePlainRfc5322({ ...base, text: `see ${following}` }, rfcMessageId(base), new Date())).toBeUndefined();
  });
});
