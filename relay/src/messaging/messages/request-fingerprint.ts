// The fingerprint of a send request's content, to tell an idempotent repeat (same body) from a
// reuse of the same transaction_id for something else (409). Keys are sorted so that JSON key order
// does not matter.
import { createHash } from 'node:crypto';

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

export function requestFingerprint(content: Readonly<Record<string, unknown>>): string {
  return createHash('sha256').update(JSON.stringify(canonical(content))).digest('hex');
}
