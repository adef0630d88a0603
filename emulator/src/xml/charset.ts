// TallyPrime answers in the charset of the request: a UTF-16LE body declared `charset=utf-16` gets a
// UTF-16LE answer without BOM; anything else is answered as UTF-8 with characters beyond Latin-1 as `?`.
// A UTF-16 body without the declaration is not understood.

export interface DecodedRequest {
  utf16: boolean;
  /** Undefined when the body cannot be a request (UTF-16 bytes without the charset). */
  text: string | undefined;
}

export function wantsUtf16(contentType: string | undefined): boolean {
  return /charset\s*=\s*"?utf-?16/i.test(contentType ?? '');
}

function looksUtf16(body: Buffer): boolean {
  if (body.length >= 2 && ((body[0] === 0xff && body[1] === 0xfe) || (body[0] === 0xfe && body[1] === 0xff))) return true;
  let zeros = 0;
  const sample = Math.min(body.length, 200);
  for (let i = 1; i < sample; i += 2) if (body[i] === 0) zeros += 1;
  return sample > 8 && zeros > sample / 4;
}

export function decodeRequest(body: Buffer, contentType: string | undefined): DecodedRequest {
  if (wantsUtf16(contentType)) {
    let text = body.toString('utf16le');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return { utf16: true, text };
  }
  if (looksUtf16(body)) return { utf16: false, text: undefined };
  let text = body.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return { utf16: false, text };
}

/**
 * Single-byte answers: characters beyond Latin-1 become `?` (bridge capture `bills_receivable_validation_lab.xml`);
 * the rest is sent as UTF-8, the charset TallyPrime declares (bridge TALLY_PROTOCOL_REFERENCE §1: "text/xml;
 * charset=utf-8", and UTF-8 decoding of its answers "succeeds in all cases", accented names exact).
 */
export function encodeResponse(text: string, utf16: boolean): Buffer {
  if (utf16) return Buffer.from(text, 'utf16le');
  return Buffer.from(text.replace(/[\u0100-\uffff]/g, '?'), 'utf8');
}

export function responseContentType(utf16: boolean): string {
  return utf16 ? 'text/xml; charset=utf-16' : 'text/xml; charset=utf-8';
}
