// Ids that begin with their time: job ids are UUIDs of version 7 (RFC 9562 §5.7), messaging ids carry
// milliseconds then random digits; both sort by the millisecond they were made and never repeat.
import { describe, expect, it } from 'vitest';
import { newJobId } from '../../src/bridge/store/bridge-ids.js';
import { randomHex, uuidV7 } from '../../src/db/time-ordered-ids.js';
import { newId } from '../../src/foundation/messaging-ids.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('time-ordered ids', () => {
  it('writes a version-7 UUID whose first 48 bits are the milliseconds it was made at', () => {
    const at = Date.UTC(2026, 10, 28, 16, 13, 54, 321);
    const id = uuidV7(at);
    expect(id).toMatch(UUID_V7);
    expect(parseInt(id.replaceAll('-', '').slice(0, 12), 16)).toBe(at);
    expect(uuidV7(0).startsWith('00000000-0000-7')).toBe(true);
  });

  it('gives job ids as version-7 UUIDs, of the present millisecond', () => {
    const before = Date.now();
    const id = newJobId();
    const after = Date.now();
    expect(id).toMatch(UUID_V7);
    const ms = parseInt(id.replaceAll('-', '').slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(after);
  });

  it('sorts ids of a later millisecond after those of an earlier one, as text', () => {
    const times = [1, 255, 256, 4095, 4096, 1_700_000_000_000, 1_700_000_000_001, 2 ** 47];
    const ids = times.map((time) => uuidV7(time));
    expect([...ids].sort()).toEqual(ids);
  });

  it('never repeats an id within one millisecond, across refills of the random pool', () => {
    const at = Date.now();
    const ids = new Set(Array.from({ length: 20_000 }, () => uuidV7(at)));
    expect(ids.size).toBe(20_000);
    const messaging = new Set(Array.from({ length: 20_000 }, () => newId('msg')));
    expect(messaging.size).toBe(20_000);
  });

  it('uses every variant digit and spreads the random digits', () => {
    const variants = new Set(Array.from({ length: 400 }, () => uuidV7().charAt(19)));
    expect([...variants].sort()).toEqual(['8', '9', 'a', 'b']);
    const hex = randomHex(5000);
    expect(hex).toMatch(/^[0-9a-f]{10000}$/);
    for (const digit of '0123456789abcdef') expect(hex.split(digit).length - 1).toBeGreaterThan(400);
  });

  it('writes messaging ids as prefix, 12 digits of milliseconds, 12 random digits', () => {
    const before = Date.now();
    const id = newId('msg');
    expect(id).toMatch(/^msg_[0-9a-f]{24}$/);
    expect(parseInt(id.slice(4, 16), 16)).toBeGreaterThanOrEqual(before);
  });
});
