// Hashing and constant-time comparison for every secret the relay keeps: only SHA-256 digests are
// stored, and a presented secret is compared digest to digest with timingSafeEqual.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function sha256Hex(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Compares a presented secret with a stored SHA-256 hex digest in constant time. */
export function secretMatchesHash(presented: string, storedHex: string): boolean {
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = Buffer.from(storedHex, 'hex');
  return b.length === a.length && timingSafeEqual(a, b);
}

/** A random URL-safe secret with the given prefix, e.g. `lwop_…`. */
export function generateSecret(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}
