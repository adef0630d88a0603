// Identifiers of bridge records: prefixed random ids (app_, cus_, lwk_…), UUID job ids (version 7:
// time first), and the clock type services take so tests can move time.
import { randomBytes } from 'node:crypto';
import { uuidV7 } from '../../db/time-ordered-ids.js';

export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

export function prefixedId(prefix: string, bytes = 12): string {
  return `${prefix}${randomBytes(bytes).toString('hex')}`;
}

/** A job id: a UUID, of version 7, so that the jobs' index on it grows at its end (db/time-ordered-ids.ts). */
export function newJobId(): string {
  return uuidV7();
}

export function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
