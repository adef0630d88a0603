// The books' busy time the control API reports: the union of request spans (a clock of our own for the
// arithmetic), and over the real XML port, a request held by a stall counted busy until it is answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '@ledgerwire/test-kit';
import { BusyTime } from '../src/control/busy-time.js';
import { control, startTestEmulator, type TestEmulator } from './helpers.js';

describe('BusyTime', () => {
  it('sums the spans of requests, counting time two of them overlap once', () => {
    const clock = testClock(0);
    const busy = new BusyTime(clock.now);
    expect(busy.sample()).toEqual({ busyMs: 0, requests: 0, connections: 0, clockMs: 0, serving: 0, idleSinceMs: null, collectorMs: 0 });
    busy.connection();
    clock.set(10);
    const first = busy.begin();
    clock.set(15);
    const second = busy.begin(); // queued behind the first
    clock.set(20);
    first();
    expect(busy.sample()).toEqual({ busyMs: 10, requests: 2, connections: 1, clockMs: 20, serving: 1, idleSinceMs: null, collectorMs: 0 });
    clock.set(30);
    second();
    second(); // ending twice changes nothing
    clock.set(50);
    expect(busy.sample()).toEqual({ busyMs: 20, requests: 2, connections: 1, clockMs: 50, serving: 0, idleSinceMs: 30, collectorMs: 0 });
    const third = busy.begin();
    clock.set(55);
    expect(busy.sample().busyMs).toBe(25); // the span under way, up to the sample
    third();
    expect(busy.sample()).toMatchObject({ busyMs: 25, serving: 0, idleSinceMs: 55 });
  });

  it('counts apart the collector pauses that fall between spans, whenever they are reported, and never time a span holds', () => {
    const clock = testClock(0);
    const busy = new BusyTime(clock.now);
    const first = busy.begin();
    clock.set(10);
    first();
    clock.set(20);
    const second = busy.begin(); // idle 10–20
    busy.collector(8, 4); // 8–12: 2 ms in the span, 2 ms in the gap, reported after the next span began
    clock.set(30);
    second();
    busy.collector(25, 2); // all inside the second span
    clock.set(40);
    busy.collector(32, 3); // in the gap under way (30–40)
    expect(busy.sample()).toMatchObject({ busyMs: 20, collectorMs: 5, idleSinceMs: 30 });
  });
});

describe('GET /busy', () => {
  let t: TestEmulator;
  beforeAll(async () => {
    t = await startTestEmulator('demo');
  });
  afterAll(async () => t.close());

  it('counts a request busy from when it is read until it is answered, and idle after', async () => {
    const before = await control(t.emulator, 'GET', '/busy', 200);
    expect(before.serving).toBe(0);
    await control(t.emulator, 'POST', '/faults', 200, { kind: 'stall-next' });
    const pending = fetch(t.emulator.xmlUrl).then((response) => response.text());
    for (let i = 0; i < 200 && !(await control(t.emulator, 'GET', '/status', 200)).stalled; i += 1) await new Promise((r) => setImmediate(r));
    const held = await control(t.emulator, 'GET', '/busy', 200);
    expect(held).toMatchObject({ serving: 1, idleSinceMs: null, requests: before.requests + 1, connections: before.connections + 1 });
    const stillHeld = await control(t.emulator, 'GET', '/busy', 200);
    // While the request is held the books stay busy: busy time grows with the emulator's clock.
    expect(stillHeld.busyMs - held.busyMs).toBeCloseTo(stillHeld.clockMs - held.clockMs, 6);
    await control(t.emulator, 'POST', '/faults/clear', 200);
    expect(await pending).toContain('TallyPrime Server is Running');
    const after = await control(t.emulator, 'GET', '/busy', 200);
    expect(after.serving).toBe(0);
    expect(after.idleSinceMs).toBeGreaterThan(stillHeld.clockMs);
    expect(after.idleSinceMs).toBeLessThanOrEqual(after.clockMs);
    // Idle since the answer: nothing more is counted after it.
    expect(after.busyMs - stillHeld.busyMs).toBeCloseTo(after.idleSinceMs - stillHeld.clockMs, 6);
  });
});
