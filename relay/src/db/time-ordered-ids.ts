// Identifiers that begin with the time they were made, so that a table's index on them grows at its
// end: a new row touches the index's last page instead of a random one, and a commit writes (to
// SQLite's WAL, to PostgreSQL's) one index page for a batch of rows instead of a page per row. Random
// ids made a bridge job's insert cost nearly twice as much on SQLite (a scratch insert benchmark, not
// kept: 39 µs a row against 22 for the same rows with time-ordered ids), the more so as tables grow.
// The random part comes from a pool because a system call per id costs more than the rest of it.
import { randomBytes } from 'node:crypto';

const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

/** `bytes` random bytes as hex, from a pool refilled with crypto.randomBytes. */
export function randomHex(bytes: number): string {
  if (poolOffset + bytes > pool.length) {
    pool = randomBytes(Math.max(POOL_BYTES, bytes));
    poolOffset = 0;
  }
  const hex = pool.toString('hex', poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return hex;
}

/** Milliseconds since the epoch as 12 hex digits: what a time-ordered id begins with. */
export function millisecondsHex(now: number = Date.now()): string {
  return now.toString(16).padStart(12, '0');
}

/**
 * A UUID of version 7 (RFC 9562 §5.7) as its 32 hex digits, without dashes: 48 bits of Unix
 * milliseconds, the version, 12 random bits, the variant, 62 random bits.
 */
export function uuidV7Hex(now: number = Date.now()): string {
  const random = randomHex(10); // 20 hex digits, 19 of them used
  // The variant, binary 10, takes the top two bits of the fourth group's first digit.
  const variant = ((parseInt(random[3]!, 16) & 0x3) | 0x8).toString(16);
  return `${millisecondsHex(now)}7${random.slice(0, 3)}${variant}${random.slice(4, 19)}`;
}

/**
 * A UUID of version 7, with its dashes. Still a UUID wherever one is asked for; ids of later
 * milliseconds sort after earlier ones as text, in any case.
 */
export function uuidV7(now: number = Date.now()): string {
  const hex = uuidV7Hex(now);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
