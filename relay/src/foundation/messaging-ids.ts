// Prefixed ids for messaging records (ten_, tpl_, msg_, mev_, evt_, rule_), and a small helper to
// tell a unique-index collision from other database errors without naming the dialect.
import { millisecondsHex, randomHex } from '../db/time-ordered-ids.js';

/**
 * `<prefix>_` + 24 hex digits: 12 of milliseconds since the epoch, then 12 random: time first, so that
 * a table's primary-key index grows at its end (db/time-ordered-ids.ts); 48 random bits keep ids made
 * in the same millisecond apart.
 */
export function newId(prefix: 'ten' | 'tpl' | 'msg' | 'mev' | 'bev' | 'rule' | 'rfs'): string {
  return `${prefix}_${millisecondsHex()}${randomHex(6)}`;
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
