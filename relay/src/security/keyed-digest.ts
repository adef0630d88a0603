// Digests of short secrets the relay looks up but never reads back (a connect session's setup code and
// page token). A setup code has only 40 bits, so a plain SHA-256 of it in a copied database is undone
// offline in minutes; an HMAC-SHA256 under a key that is not in the database cannot be checked without
// that key. The key is derived (HKDF-SHA256) from the relay's encryption key (encryption-key.ts) with a
// purpose label, so it is never the key that seals webhook secrets, and each purpose gets its own key.
// Stored form: `hmac:v1:<64 hex>`, so a reader of the column knows it is keyed, not a plain digest.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

const PREFIX = 'hmac:v1:';
const KEY_BYTES = 32;

export class KeyedDigest {
  private readonly key: Buffer;

  /** `purpose` names what is digested (e.g. `connect-session-secrets`); different purposes get unrelated keys. */
  constructor(rootKey: Buffer, purpose: string) {
    if (rootKey.length !== KEY_BYTES) throw new Error(`A root key is ${KEY_BYTES} bytes; this one has ${rootKey.length}`);
    this.key = Buffer.from(hkdfSync('sha256', rootKey, Buffer.alloc(0), `ledgerwire keyed digest: ${purpose}`, KEY_BYTES));
  }

  /** The stored form of `secret` (`hmac:v1:…`, 72 characters). */
  digest(secret: string): string {
    return `${PREFIX}${this.mac(secret).toString('hex')}`;
  }

  /** Whether `secret` is the one `stored` was made from, compared in constant time. */
  matches(secret: string, stored: string): boolean {
    if (!stored.startsWith(PREFIX)) return false;
    const expected = Buffer.from(stored.slice(PREFIX.length), 'hex');
    const actual = this.mac(secret);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }

  private mac(secret: string): Buffer {
    return createHmac('sha256', this.key).update(secret, 'utf8').digest();
  }
}
