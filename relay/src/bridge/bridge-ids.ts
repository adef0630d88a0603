// Identifiers of bridge records: prefixed random ids (app_, cus_, lwk_…), UUID job ids, and the
// clock type services take so tests can move time.
import { randomBytes, randomUUID } from 'node:crypto';

export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

export function prefixedId(prefix: string, bytes = 12): string {
  return `${prefix}${randomBytes(bytes).toString('hex')}`;
}

export function newJobId(): string {
  return randomUUID();
}

export function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
