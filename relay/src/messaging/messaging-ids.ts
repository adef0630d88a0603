// Prefixed ids for messaging records (ten_, tpl_, msg_, mev_, evt_, rule_), and a small helper to
// tell a unique-index collision from other database errors without naming the dialect.
import { randomBytes } from 'node:crypto';

/** Random bytes fetched per refill: one system call serves this many ids. */
const POOL_IDS = 512;
const RANDOM_BYTES_PER_ID = 6;

let pool = Buffer.alloc(0);
let poolOffset = 0;

/**
 * `<prefix>_` + 24 hex digits: 12 of milliseconds since the epoch, then 12 random. Time first so
 * that a table's primary-key index grows at its end (a send touches one index page, not a random
 * one: fewer pages written per commit); 48 random bits keep ids made in the same millisecond apart.
 * The randomness comes from a pool because a system call per id costs more than the rest of it.
 */
export function newId(prefix: 'ten' | 'tpl' | 'msg' | 'mev' | 'bev' | 'rule'): string {
  if (poolOffset + RANDOM_BYTES_PER_ID > pool.length) {
    pool = randomBytes(POOL_IDS * RANDOM_BYTES_PER_ID);
    poolOffset = 0;
  }
  const random = pool.toString('hex', poolOffset, poolOffset + RANDOM_BYTES_PER_ID);
  poolOffset += RANDOM_BYTES_PER_ID;
  return `${prefix}_${Date.now().toString(16).padStart(12, '0')}${random}`;
}

/** True for SQLite's SQLITE_CONSTRAINT_UNIQUE/PRIMARYKEY and PostgreSQL's 23505. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

let lastIsoMs = Number.NaN;
let lastIso = '';

/** The clock's time as an ISO string; remembered for the millisecond (many sends share one under load). */
export function isoNow(now: () => number): string {
  const ms = now();
  if (ms !== lastIsoMs) {
    lastIso = new Date(ms).toISOString();
    lastIsoMs = ms;
  }
  return lastIso;
}
