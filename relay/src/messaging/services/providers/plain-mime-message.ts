// The common case of an outgoing email composed directly as RFC 5322 text, without nodemailer's
// MIME tree and streams: at dispatch rates its composition was the largest cost of a pass. It covers
// messages whose header values need no encoding (printable ASCII addresses and a subject that fits
// one header line); the bodies may hold anything, each part going as 7bit when nodemailer would send
// it so (plain ASCII, no line over 76) and as quoted-printable otherwise. Anything else returns
// undefined and goes through nodemailer (mime-message.ts), so the result has the same headers, order
// and structure as nodemailer's either way (test/messaging/plain-mime-message.test.ts compares them).
import { randomBytes } from 'node:crypto';
import type { OutgoingEmail } from './email-provider.js';

/** A bare address: the characters nodemailer writes back unchanged. */
const ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*$/;
/** `Name <address>` where the name is atoms and spaces, which nodemailer neither quotes nor encodes. */
const NAMED_ADDRESS = /^\s*([A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?: +[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*)\s*<([^<>\s]+)>\s*$/;
/** Printable ASCII: a header value that needs no encoded-words. */
const PRINTABLE = /^[\x20-\x7e]*$/;
/** What keeps a part out of 7bit (nodemailer's mimeFuncs.isPlainText). */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const NOT_PLAIN = /[\x00-\x08\x0b\x0c\x0e-\x1f\u0080-\uffff]/;
const LONG_LINE = /^.{77,}/m;
/** Header lines stay within 76 characters, as nodemailer folds them. */
const HEADER_LINE = 76;
const QP_LINE = 76;

/** One random part per process; the counter keeps every boundary unique without a random draw each. */
const boundaryBase = randomBytes(8).toString('hex');
let boundaryCount = 0;

/** The message as RFC 5322 bytes, or undefined when it needs what only nodemailer does. */
export function composePlainRfc5322(email: OutgoingEmail, messageIdHeader: string, date: Date): Buffer | undefined {
  const from = plainAddress(email.from);
  const to = plainAddress(email.to);
  if (from === undefined || to === undefined) return undefined;
  if (!PRINTABLE.test(email.subject) || `Subject: ${email.subject}`.length > HEADER_LINE) return undefined;
  if (!PRINTABLE.test(email.messageId) || !PRINTABLE.test(messageIdHeader)) return undefined;
  const parts = [
    ...(email.text === null || email.text === '' ? [] : [encodePart('text/plain', email.text)]),
    ...(email.html === '' ? [] : [encodePart('text/html', email.html)]),
  ];
  const [first, second] = parts;
  if (first === undefined) return undefined;
  const head = [
    `X-Ledgerwire-Message-ID: ${email.messageId}`,
    `From: ${from}`,
    `To: ${to}`,
    `Subject: ${email.subject}`,
    `Message-ID: ${messageIdHeader}`,
  ];
  if (second === undefined) {
    // A single part: its transfer encoding comes before Date, where nodemailer puts it.
    head.push(`Content-Transfer-Encoding: ${first.encoding}`, `Date: ${rfc5322Date(date)}`, 'MIME-Version: 1.0', `Content-Type: ${first.type}; charset=utf-8`);
    return Buffer.from(`${head.join('\r\n')}\r\n\r\n${first.body}\r\n`, 'utf8');
  }
  const boundary = `--_LwP-${boundaryBase}-${(boundaryCount++).toString(36)}`;
  // A 7bit part could hold anything; one that holds the boundary would cut the message short.
  if (first.body.includes(boundary) || second.body.includes(boundary)) return undefined;
  head.push(`Date: ${rfc5322Date(date)}`, 'MIME-Version: 1.0', 'Content-Type: multipart/alternative;', ` boundary="${boundary}"`);
  const part = (p: EncodedPart) => `--${boundary}\r\nContent-Type: ${p.type}; charset=utf-8\r\nContent-Transfer-Encoding: ${p.encoding}\r\n\r\n${p.body}\r\n`;
  return Buffer.from(`${head.join('\r\n')}\r\n\r\n${part(first)}${part(second)}--${boundary}--\r\n`, 'utf8');
}

/** An address as nodemailer would write it, when it would write it back unchanged. */
function plainAddress(value: string): string | undefined {
  if (ADDRESS.test(value)) return value;
  const named = NAMED_ADDRESS.exec(value);
  if (!named || !ADDRESS.test(named[2]!)) return undefined;
  return `${named[1]} <${named[2]}>`;
}

type EncodedPart = Readonly<{ type: string; encoding: '7bit' | 'quoted-printable'; body: string }>;

function encodePart(type: string, content: string): EncodedPart {
  if (!NOT_PLAIN.test(content) && !LONG_LINE.test(content)) return { type, encoding: '7bit', body: crlf(content) };
  return { type, encoding: 'quoted-printable', body: quotedPrintable(content) };
}

function crlf(text: string): string {
  return text.replace(/\r\n|\r|\n/g, '\r\n');
}

/** RFC 2045 quoted-printable of the UTF-8 text: hard line breaks kept as CRLF, soft breaks within 76. */
export function quotedPrintable(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => {
      const bytes = Buffer.from(line, 'utf8');
      let out = '';
      let current = '';
      for (let i = 0; i < bytes.length; i++) {
        const byte = bytes[i]!;
        const last = i === bytes.length - 1;
        // Whitespace at the end of a line would be lost in transport: it is encoded there.
        const literal = byte >= 33 && byte <= 126 ? byte !== 61 : (byte === 32 || byte === 9) && !last;
        const token = literal ? String.fromCharCode(byte) : `=${byte < 16 ? '0' : ''}${byte.toString(16).toUpperCase()}`;
        if (current.length + token.length > QP_LINE - 1) {
          out += `${current}=\r\n`;
          current = '';
        }
        current += token;
      }
      return out + current;
    })
    .join('\r\n');
}

/** `Wed, 25 Nov 2026 17:44:39 +0000`, as nodemailer writes the Date header. */
function rfc5322Date(date: Date): string {
  return date.toUTCString().replace(/GMT/, '+0000');
}
