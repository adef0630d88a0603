// Bytes on the wire to and from the books. TallyPrime answers in the charset of the request: only a
// UTF-16LE request (with `charset=utf-16`) gets non-Latin names back intact, and the answer then comes
// as UTF-16LE without a BOM. Pure functions; the HTTP client lives in the connector.

/** Content type to send with `encodeBooksRequest` bodies. */
export const BOOKS_REQUEST_CONTENT_TYPE = 'text/xml; charset=utf-16';

/** UTF-16LE with a BOM (`FF FE`), as TallyPrime clients send it. */
export function encodeBooksRequest(xml: string): Uint8Array {
  const bytes = new Uint8Array(2 + xml.length * 2);
  bytes[0] = 0xff;
  bytes[1] = 0xfe;
  for (let i = 0; i < xml.length; i += 1) {
    const code = xml.charCodeAt(i);
    bytes[2 + i * 2] = code & 0xff;
    bytes[3 + i * 2] = code >> 8;
  }
  return bytes;
}

/**
 * Decodes a books answer: BOM-marked UTF-16LE/BE or UTF-8, BOM-less UTF-16LE (detected by NUL high
 * bytes in the first characters, which ASCII markup always has), otherwise UTF-8.
 */
export function decodeBooksResponse(bytes: Uint8Array): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return new TextDecoder('utf-8').decode(bytes.subarray(3));
  }
  if (looksLikeUtf16le(bytes)) return new TextDecoder('utf-16le').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}

function looksLikeUtf16le(bytes: Uint8Array): boolean {
  const sample = Math.min(bytes.length - (bytes.length % 2), 64);
  if (sample < 2) return false;
  let zeroHigh = 0;
  for (let i = 1; i < sample; i += 2) if (bytes[i] === 0) zeroHigh += 1;
  return zeroHigh >= sample / 4;
}
