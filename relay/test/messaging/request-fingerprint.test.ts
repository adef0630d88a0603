// The send fingerprint is stored with every message, so its canonical text may never change: the
// direct writer must produce exactly what the first version did (JSON.stringify of a key-sorted
// copy), including JavaScript's integer-keys-first order, omitted values and array holes.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, requestFingerprint } from '../../src/foundation/request-fingerprint.js';

/** The first version, verbatim: the reference the stored fingerprints were made with. */
function referenceCanonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(referenceCanonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((key) => [key, referenceCanonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

function referenceFingerprint(content: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(referenceCanonical(content))).digest('hex');
}

/** A small deterministic generator (no dependency, same cases on every run). */
function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const keys = ['a', 'b', 'B', '0', '1', '10', '2', '01', '-1', '1.5', '4294967294', '4294967295', 'é', '', ' z', '__x', 'name'];
  const value = (depth: number): unknown => {
    const pick = Math.floor(next() * (depth > 3 ? 6 : 9));
    switch (pick) {
      case 0: return null;
      case 1: return next() < 0.5;
      case 2: return Math.round(next() * 1e6) / 100 - 5000;
      case 3: return `s${Math.floor(next() * 100)}"\\\u2028é`;
      case 4: return undefined;
      case 5: return [1e21, -0, Number.NaN][Math.floor(next() * 3)];
      case 6: return Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1));
      default: {
        const record: Record<string, unknown> = {};
        for (let i = Math.floor(next() * 6); i > 0; i--) record[keys[Math.floor(next() * keys.length)]!] = value(depth + 1);
        return record;
      }
    }
  };
  return value;
}

describe('request fingerprint', () => {
  it('is the same digest as the first version for a pinned send body', () => {
    const body = {
      channel: 'email',
      to: 'ada@example.com',
      subject: 'Invoice {{number}}',
      event_key: 'invoice_ready',
      data: { name: 'Ada', number: '1001', '10': 'x', '2': ['b', null, { z: 1, a: [true, 1.5e300] }], nested: { é: 'ü', '': '' } },
    };
    expect(requestFingerprint(body)).toBe('d1fb97dba6df413603f5403856afe635f56b1527f19efe2202ddbc4278e40868');
    expect(requestFingerprint(body)).toBe(referenceFingerprint(body));
  });

  it('writes the reference text for integer-like keys, omitted values, holes, dates and nesting', () => {
    const cases: unknown[] = [
      { '10': 1, '9': 2, b: 3, a: 4, '01': 5, '-1': 6, '4294967295': 7, '4294967294': 8 },
      { keep: null, drop: undefined, fn: () => 1, list: [undefined, () => 1, Symbol('x'), 1] },
      // eslint-disable-next-line no-sparse-arrays
      [1, , 3],
      { when: new Date(0), nested: [{ y: [{}] }, []], text: 'line\u2028sep "quoted" \\ back' },
      { numbers: [1e21, -0, Number.NaN, Number.POSITIVE_INFINITY, 0.1 + 0.2] },
    ];
    for (const value of cases) expect(canonicalJson(value)).toBe(JSON.stringify(referenceCanonical(value)));
  });

  it('matches the reference on 2,000 generated bodies', () => {
    const value = generator(7);
    for (let i = 0; i < 2000; i++) {
      const data = value(0);
      const body = { channel: 'email', to: 'a@b.co', subject: 's', event_key: 'k', data };
      expect(requestFingerprint(body)).toBe(referenceFingerprint(body));
    }
  });
});
