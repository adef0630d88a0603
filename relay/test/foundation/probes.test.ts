import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, describeOnDatabases, startRelay, type TestRelay } from '@ledgerwire/test-kit';

describeOnDatabases('probes', (kind) => {
  let relay: TestRelay;
  beforeEach(async () => {
    relay = await startRelay({ database: kind });
  });
  afterEach(async () => {
    await relay.close();
  });

  it('GET /api/health answers without a credential', async () => {
    const { body } = await call(relay.app, 'GET', '/api/health', 200);
    expect(body).toEqual({ status: 'ok', service: 'messaging' });
  });

  it('GET /readyz is 200 while the database answers and 503 once it does not', async () => {
    expect((await call(relay.app, 'GET', '/readyz', 200)).body).toMatchObject({ status: 'ready', database: 'ok' });
    await relay.app.database.destroy();
    const down = (await call(relay.app, 'GET', '/readyz', 503)).body;
    expect(down).toMatchObject({ status: 'unavailable', database: 'unreachable' });
    // The loops are still listed; their queues' lag is unknown without the database.
    expect(down.loops.length).toBeGreaterThan(0);
    expect(down.loops.every((loop: { oldest_due_lag_ms: number | null }) => loop.oldest_due_lag_ms === null)).toBe(true);
  });

  it('every answer carries a request id, and honours one that is sent', async () => {
    const { headers } = await call(relay.app, 'GET', '/api/health', 200, { headers: { 'x-request-id': 'req_from_caller' } });
    expect(headers['x-request-id']).toBe('req_from_caller');
    const other = await call(relay.app, 'GET', '/api/health', 200);
    expect(String(other.headers['x-request-id'])).toMatch(/^req_[0-9a-f-]{36}$/);
  });

  it('unknown routes get the envelope or the messaging shape by API family', async () => {
    const bridge = await call(relay.app, 'GET', '/api/v1/nothing-here', 404);
    expect(bridge.body).toEqual({ success: false, error: { code: 'route_not_found', message: 'No endpoint GET /api/v1/nothing-here', details: [] } });
    const messaging = await call(relay.app, 'GET', '/api/nothing-here', 404);
    expect(messaging.body).toEqual({ error: 'No endpoint GET /api/nothing-here' });
  });
});
