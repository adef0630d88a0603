// A background loop's health on a clock the test moves: last pass, last error, lag of the oldest due
// row, and "stuck" exactly when no pass has ended for STUCK_INTERVALS intervals (at least
// STUCK_FLOOR_MS) beyond the wait the loop scheduled itself. /readyz lists every loop and answers 503
// while one is stuck. No wall-clock durations: time moves only when the test moves it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { createBackgroundLoop } from '../../src/background/background-loop.js';
import { STUCK_FLOOR_MS, STUCK_INTERVALS } from '../../src/background/loop-health.js';
import { call, describeOnDatabases, startRelay, TEST_OPERATOR_TOKEN, testClock, type TestClock, type TestRelay } from '@ledgerwire/test-kit';

const log = pino({ level: 'silent' });

/** A queued email message, due at `dueAt`, as the send path stores one. */
function queuedMessage(tenantId: string, dueAt: string) {
  return {
    id: 'msg_lag_test', tenant_id: tenantId, business_event_id: 'lag-1', transaction_id: 'lag-1', action: 'send', request_hash: 'h',
    channel: 'email', to_address: 'asha@example.com', subject: 'Hello', html: '<p>Hello</p>', text: null, event_key: 'lag', template_id: 'tpl_lag',
    template_fallback: 0, status: 'queued', status_rank: 0, provider: null, provider_message_id: null, attempts: 0,
    next_attempt_at: dueAt, lease_until: null, error: null, created_at: dueAt, updated_at: dueAt,
  };
}

const MORNING = Date.parse('2026-03-01T09:00:00.000Z');

describe('background loop health', () => {
  it('reports the last pass and the last error, and a failure leaves the error in place after a later pass works', async () => {
    const clock = testClock(MORNING);
    let fail = true;
    const loop = createBackgroundLoop({
      name: 'test-loop',
      intervalMs: 1_000,
      log,
      now: clock.now,
      pass: async () => {
        if (fail) throw new Error('the provider refused the connection');
      },
    });
    expect(loop.health()).toMatchObject({ name: 'test-loop', running: false, lastPassAt: null, lastError: null, stuck: false });
    await loop.runOnce();
    expect(loop.health()).toMatchObject({ lastPassAt: '2026-03-01T09:00:00.000Z', lastError: 'the provider refused the connection', lastErrorAt: '2026-03-01T09:00:00.000Z', consecutiveFailures: 1 });
    fail = false;
    clock.advance(5_000);
    await loop.runOnce();
    expect(loop.health()).toMatchObject({ lastPassAt: '2026-03-01T09:00:05.000Z', lastError: 'the provider refused the connection', consecutiveFailures: 0 });
  });

  it('is stuck only once a started loop has had no pass end for the allowed time, and not once a pass ends', async () => {
    const clock = testClock(MORNING);
    const intervalMs = 30_000;
    let release: () => void = () => undefined;
    let hang = true;
    const loop = createBackgroundLoop({
      name: 'hanging-loop',
      intervalMs,
      log,
      now: clock.now,
      pass: () => (hang ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve()),
    });
    loop.start();
    // The first pass was scheduled at once (delay 0): allowed is 5 intervals (150 s, above the floor).
    const allowed = Math.max(STUCK_INTERVALS * intervalMs, STUCK_FLOOR_MS);
    clock.advance(allowed);
    expect(loop.health().stuck).toBe(false);
    clock.advance(1);
    expect(loop.health().stuck).toBe(true);
    hang = false;
    const passing = loop.runOnce();
    release();
    await passing;
    expect(loop.health()).toMatchObject({ stuck: false, lastPassAt: new Date(clock.now()).toISOString() });
    await loop.stop();
    clock.advance(10 * allowed);
    expect(loop.health()).toMatchObject({ running: false, stuck: false });
  });

  it('a loop with a short interval is stuck only after the floor, beyond its back-off after failures', async () => {
    const clock = testClock(MORNING);
    const loop = createBackgroundLoop({ name: 'fast-loop', intervalMs: 100, maxBackoffMs: 60_000, log, now: clock.now, pass: () => Promise.reject(new Error('down')) });
    loop.start();
    await loop.runOnce();
    await loop.stop();
    // Stopped: never stuck. The rule itself, on the same numbers, through a running loop:
    const running = createBackgroundLoop({ name: 'fast-loop', intervalMs: 100, log, now: clock.now, pass: () => Promise.reject(new Error('down')) });
    running.start();
    await running.runOnce();
    // One failure: back-off 200 ms, then the floor (60 s) since 5 × 100 ms is less.
    clock.advance(200 + STUCK_FLOOR_MS);
    expect(running.health()).toMatchObject({ stuck: false, consecutiveFailures: 1 });
    clock.advance(1);
    expect(running.health().stuck).toBe(true);
    await running.stop();
  });

  it('reports the lag of the oldest due row, 0 when none is due, and null for a loop with no queue', async () => {
    const clock = testClock(MORNING);
    let oldest: Date | null = new Date(clock.now() - 42_000);
    const queued = createBackgroundLoop({ name: 'queue', intervalMs: 1_000, log, now: clock.now, pass: async () => undefined, oldestDue: async () => oldest });
    expect((await queued.report()).oldestDueLagMs).toBe(42_000);
    oldest = null;
    expect((await queued.report()).oldestDueLagMs).toBe(0);
    const plain = createBackgroundLoop({ name: 'plain', intervalMs: 1_000, log, now: clock.now, pass: async () => undefined });
    expect((await plain.report()).oldestDueLagMs).toBeNull();
  });
});

describeOnDatabases('/readyz reports the loops', (kind) => {
  let relay: TestRelay;
  let clock: TestClock;
  beforeEach(async () => {
    clock = testClock(Date.now());
    relay = await startRelay({ database: kind, clock });
    await relay.app.ready();
  });
  afterEach(async () => {
    await relay.close();
  });

  it('lists every loop with its health and the lag of the dispatch queue', async () => {
    const { body } = await call(relay.app, 'GET', '/readyz', 200);
    const names = (body.loops as { name: string }[]).map((loop) => loop.name);
    expect(names).toEqual(
      expect.arrayContaining(['messaging-dispatch', 'messaging-events', 'rate-limit-pruner', 'webhook-delivery', 'bridge-lease-reaper', 'connector-claims', 'connector-heartbeat', 'connector-presence']),
    );
    const dispatch = (body.loops as Record<string, unknown>[]).find((loop) => loop.name === 'messaging-dispatch');
    expect(dispatch).toMatchObject({ running: true, stuck: false, oldest_due_lag_ms: 0, last_error: null });
    const pruner = (body.loops as Record<string, unknown>[]).find((loop) => loop.name === 'rate-limit-pruner');
    expect(pruner).toMatchObject({ oldest_due_lag_ms: 0, interval_ms: 600_000 });
    const heartbeat = (body.loops as Record<string, unknown>[]).find((loop) => loop.name === 'connector-heartbeat');
    // A loop that keeps no queue of its own has no lag to report.
    expect(heartbeat).toMatchObject({ oldest_due_lag_ms: null });
  });

  it('measures the lag of a queue from its oldest due row: a message due a minute ago, a counter expired an hour ago', async () => {
    const { dispatchLoop, pruneLoop } = relay.app.messaging;
    // Stopped, so no pass works the rows off while the test reads their lag.
    await Promise.all([dispatchLoop.stop(), pruneLoop.stop()]);
    const { db } = relay.app.database;
    const now = clock.now();
    const created = await call(relay.app, 'POST', '/admin/v1/tenants', 201, { token: TEST_OPERATOR_TOKEN, payload: { name: 'Lag Co', org_id: 4242 } });
    await db.insertInto('msg_messages').values(queuedMessage(created.body.tenant.id, new Date(now - 60_000).toISOString())).execute();
    await db.insertInto('rate_limit_counters').values({ scope: 'lag-test', window_start: now - 7_200_000, count: 1, expires_at: now - 3_600_000 }).execute();
    expect((await dispatchLoop.report()).oldestDueLagMs).toBe(60_000);
    expect((await pruneLoop.report()).oldestDueLagMs).toBe(3_600_000);
  });

  it('answers 503 naming the stuck loop when one has had no pass for its allowed time', async () => {
    const pruner = relay.app.messaging.pruneLoop;
    // Its first pass, now: the next is ten minutes away, longer than this test.
    await pruner.runOnce();
    clock.advance(600_000 + Math.max(STUCK_INTERVALS * 600_000, STUCK_FLOOR_MS) + 1);
    const { body } = await call(relay.app, 'GET', '/readyz', 503);
    expect(body).toMatchObject({ status: 'unavailable', database: 'ok' });
    const stuck = (body.loops as { name: string; stuck: boolean }[]).filter((loop) => loop.stuck).map((loop) => loop.name);
    expect(stuck).toContain('rate-limit-pruner');
    // The console's Operations page reads the same reports, as a 200 it can show.
    const consoleView = await call(relay.app, 'GET', '/admin/v1/console/background-loops', 200, { token: TEST_OPERATOR_TOKEN });
    expect(consoleView.body).toMatchObject({ success: true, readiness: 'unavailable' });
    expect(consoleView.body.loops.find((loop: { name: string }) => loop.name === 'rate-limit-pruner')).toMatchObject({ stuck: true });
  });
});
