// Keyed digests of setup codes and page tokens: an HMAC under a key derived from the relay's encryption
// key, so a copied database alone cannot confirm a guess, and never the encryption key itself.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeyedDigest } from '../../src/security/keyed-digest.js';

describe('keyed digest', () => {
  const rootKey = randomBytes(32);
  const digest = new KeyedDigest(rootKey, 'connect-session-secrets');

  it('is an HMAC-SHA256 in a marked form, and not a plain SHA-256 of the secret', () => {
    const stored = digest.digest('K7QPM3XD');
    expect(stored).toMatch(/^hmac:v1:[0-9a-f]{64}$/);
    expect(stored).not.toContain(createHash('sha256').update('K7QPM3XD').digest('hex'));
    // Keyed with a derived key, not the encryption key that seals webhook secrets.
    expect(stored).not.toContain(createHmac('sha256', rootKey).update('K7QPM3XD').digest('hex'));
    expect(digest.digest('K7QPM3XD')).toBe(stored);
  });

  it('differs by root key and by purpose', () => {
    const stored = digest.digest('K7QPM3XD');
    expect(new KeyedDigest(randomBytes(32), 'connect-session-secrets').digest('K7QPM3XD')).not.toBe(stored);
    expect(new KeyedDigest(rootKey, 'another-purpose').digest('K7QPM3XD')).not.toBe(stored);
    expect(new KeyedDigest(Buffer.from(rootKey), 'connect-session-secrets').digest('K7QPM3XD')).toBe(stored);
  });

  it('matches only the secret it was made from, and only its own stored form', () => {
    const stored = digest.digest('K7QPM3XD');
    expect(digest.matches('K7QPM3XD', stored)).toBe(true);
    expect(digest.matches('K7QPM3XE', stored)).toBe(false);
    expect(digest.matches('K7QPM3XD', stored.slice(0, -2))).toBe(false);
    expect(digest.matches('K7QPM3XD', createHash('sha256').update('K7QPM3XD').digest('hex'))).toBe(false);
    expect(new KeyedDigest(randomBytes(32), 'connect-session-secrets').matches('K7QPM3XD', stored)).toBe(false);
  });

  it('refuses a root key of the wrong size', () => {
    expect(() => new KeyedDigest(randomBytes(16), 'connect-session-secrets')).toThrow(/32 bytes/);
  });
});
