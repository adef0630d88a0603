// Encryption at rest for secrets the relay must read back (webhook signing keys: an HMAC needs the key
// itself, so a hash will not do). AES-256-GCM with a fresh 96-bit IV per value, bound to the row it
// belongs to (additional data), in a versioned text form:
//   enc:v1:<key id>:<iv>:<tag>:<ciphertext>   (each part base64url)
// The key id is a short digest of the key, so a relay holding another key can say so in words instead
// of failing an authentication tag. Values without the prefix are clear text written before encryption
// existed; they still open, and their owners re-seal them (webhook-endpoint-repository.ts).
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const PREFIX = 'enc:v1:';
const KEY_BYTES = 32;
const IV_BYTES = 12;

/** A stored secret this relay cannot open: another key sealed it, or the text was damaged. */
export class SecretUnreadableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretUnreadableError';
  }
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

export class SecretBox {
  /** Names the key without revealing it (first 48 bits of its SHA-256). */
  readonly keyId: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== KEY_BYTES) throw new Error(`An encryption key is ${KEY_BYTES} bytes; this one has ${key.length}`);
    this.keyId = createHash('sha256').update(key).digest().subarray(0, 6).toString('base64url');
  }

  /** Seals a clear value for `context` (e.g. the row id); sealed and empty values pass through unchanged. */
  seal(value: string, context: string): string {
    if (value === '' || isSealed(value)) return value;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64url'));
    return `${PREFIX}${this.keyId}:${parts.join(':')}`;
  }

  /** The clear value of a stored one (clear legacy values come back as they are). */
  open(stored: string, context: string): string {
    if (!isSealed(stored)) return stored;
    const [keyId, iv, tag, ciphertext, ...rest] = stored.slice(PREFIX.length).split(':');
    if (keyId === undefined || iv === undefined || tag === undefined || ciphertext === undefined || rest.length > 0) {
      throw new SecretUnreadableError('The stored secret is damaged (not enc:v1:<key>:<iv>:<tag>:<ciphertext>)');
    }
    if (keyId !== this.keyId) {
      throw new SecretUnreadableError(
        `The stored secret was encrypted with key ${keyId}, but this relay has key ${this.keyId}: ` +
          'every relay sharing a database needs the same RELAY_ENCRYPTION_KEY',
      );
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretUnreadableError('The stored secret failed its integrity check (altered, or moved from another row)');
    }
  }
}
