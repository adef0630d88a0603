// The fingerprint of a send request's content, to tell an idempotent repeat (same body) from a
// reuse of the same transaction_id for something else (409). Keys are sorted so that JSON key order
// does not matter.
//
// Stored fingerprints must stay comparable, so the canonical text is exactly what the first version
// produced — JSON.stringify of a copy whose object keys were inserted in sorted order — written
// directly instead of building that copy on every send. Note what such a copy does: integer-like
// keys ("0", "10") come first in numeric order, as JavaScript orders them; properties that
// JSON.stringify leaves out (undefined, functions) are left out, and are null inside arrays; an
// object's own enumerable keys are all that counts (a Date is {}).
import { hash } from 'node:crypto';

/** The canonical JSON text of a value (see above); written into one string, no array of parts per level. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) as string;
  if (Array.isArray(value)) {
    let out = '[';
    // An index loop, not map: a hole must come out as null, as JSON.stringify writes it.
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (index > 0) out += ',';
      out += isOmitted(item) ? 'null' : canonicalJson(item);
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  let out = '{';
  for (const key of sortedKeys(record)) {
    const item = record[key];
    if (isOmitted(item)) continue;
    if (out.length > 1) out += ',';
    out += `${JSON.stringify(key)}:${canonicalJson(item)}`;
  }
  return `${out}}`;
}

export function requestFingerprint(content: Readonly<Record<string, unknown>>): string {
  // crypto.hash: the one-shot form, without a Hash object per request; the same SHA-256 hex digest.
  return hash('sha256', canonicalJson(content), 'hex');
}

function isOmitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** Sorted keys, then integer-like ones moved to the front in numeric order (JavaScript's own-key order). */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record).sort();
  if (!keys.some(isArrayIndex)) return keys;
  const indexes = keys.filter(isArrayIndex).sort((a, b) => Number(a) - Number(b));
  return [...indexes, ...keys.filter((key) => !isArrayIndex(key))];
}

const MAX_ARRAY_INDEX = 2 ** 32 - 2;

function isArrayIndex(key: string): boolean {
  // Most keys start with a letter: no regex for them.
  const first = key.charCodeAt(0);
  if (!(first >= 0x30 && first <= 0x39)) return false;
  return /^(?:0|[1-9][0-9]*)$/.test(key) && Number(key) <= MAX_ARRAY_INDEX;
}
