// Two relays on one PostgreSQL (scale mode) share each tenant's limits: the burst limit and the
// daily quota hold across both, and a send accepted by one is replayed, not duplicated, by the other.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDatabaseKinds, call, midMinute, startRelay, testClock, type TestRelay } from '@ledgerwire/test-kit';
import { createTemplate, provisionTenant, sendBody } from '../messaging/support/messaging-test-relay.js';

describe.runIf(availableDatabaseKinds().includes('postgres'))('limits across two relay processes [postgres]', () => {
  let first: TestRelay;
  let relays: FastifyInstance[];
  const clock = testClock(midMinute());

  // One pair of relays per file (starting them is most of a test's time): each test provisions a tenant
  // of its own, whose limits are counted apart, and the clock never moves.
  beforeAll(async () => {
    first = await startRelay({ database: 'postgres', env: { RELAY_WORKERS: '0' }, clock });
    relays = [first.app, (await startRelay({ config: first.config, clock })).app];
  });
  afterAll(async () => {
    for (const relay of relays.slice(1)) await relay.close();
    await first.close();
  });

  it('the burst limit counts requests to both relays together', async () => {
    const [a, b] = relays as [FastifyInstance, FastifyInstance];
    const tenant = await provisionTenant(a, { limits: { burst_per_minute: 6 } });
    for (let i = 0; i < 6; i++) await call(i % 2 === 0 ? a : b, 'GET', '/api/messages/msg_x', 404, { token: tenant.apiKey });
    const refused = await call(b, 'GET', '/api/messages/msg_x', 429, { token: tenant.apiKey });
    expect(refused.body).toEqual({ error: 'Rate limit exceeded' });
    await call(a, 'GET', '/api/messages/msg_x', 429, { token: tenant.apiKey });
  });

  it('the daily quota and idempotency hold across both relays', async () => {
    const [a, b] = relays as [FastifyInstance, FastifyInstance];
    const tenant = await provisionTenant(a, { limits: { daily_quota: 3 } });
    await createTemplate(a, tenant.id, { event_key: 'invoice_ready' });
    const payload = sendBody();
    const first = await call(a, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload });
    const replay = await call(b, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload });
    expect(replay.body.message_id).toBe(first.body.message_id);
    await call(b, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: sendBody() });
    await call(a, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: sendBody() });
    const refused = await call(b, 'POST', '/api/messages/send', 429, { token: tenant.apiKey, payload: sendBody() });
    expect(refused.body).toEqual({ error: 'Daily quota exceeded' });
    expect(Number(refused.headers['ratelimit-limit'])).toBe(3);
  });
});
