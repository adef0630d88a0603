// Prefixed random ids for messaging records (ten_, tpl_, msg_, mev_, evt_, rule_), and a small
// helper to tell a unique-index collision from other database errors without naming the dialect.
import { randomBytes } from 'node:crypto';

export function newId(prefix: 'ten' | 'tpl' | 'msg' | 'mev' | 'bev' | 'rule'): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

/** True for SQLite's SQLITE_CONSTRAINT_UNIQUE/PRIMARYKEY and PostgreSQL's 23505. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export function isoNow(now: () => number): string {
  return new Date(now()).toISOString();
}
