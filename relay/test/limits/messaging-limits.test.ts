// The messaging contract's Limits table over HTTP, exactly: burst (every authenticated request),
// sustained and daily quota (accepted messages), event ingestion and provider webhooks; per-tenant
// overrides; every 429 with Retry-After and RateLimit-Limit / -Remaining / -Reset. The clock is
// pinned inside a window so no test straddles a boundary.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { call, describeOnDatabases, midMinute, TEST_OPERATOR_TOKEN, testClock } from '@ledgerwire/test-kit';
import { SendGridSigner } from '../messaging/support/sendgrid-signer.js';
import { createTemplate, provisionTenant, sendBody, startMessagingRelay, type MessagingTestRelay } from '../messaging/support/messaging-test-relay.js';

function expectLimitHeaders(headers: Record<string, unknown>, limit: number, reset: number) {
  expect(headers['retry-after']).toBe(String(reset));
  expect(headers['ratelimit-limit']).toBe(String(limit));
  expect(headers['ratelimit-remaining']).toBe('0');
  expect(headers['ratelimit-reset']).toBe(String(reset));
}

describeOnDatabases('messaging limits', (kind) => {
  let relay: MessagingTestRelay;
  const clock = testClock(midMinute());
  const signer = new SendGridSigner();

  // One relay per file (starting one is most of a test's time): every limit is counted per tenant and
  // each test provisions tenants of its own; the clock goes back to mid-minute before each test.
  beforeAll(async () => {
    relay = await startMessagingRelay(kind, { SENDGRID_WEBHOOK_PUBLIC_KEY: signer.publicKeyBase64 }, { now: clock.now });
  });
  beforeEach(() => {
    clock.set(midMinute());
  });
  afterAll(async () => relay.close());

  it('contract defaults: burst 100, sustained 20, daily 100, events 100, webhooks 300', async () => {
    const tenant = await provisionTenant(relay.app);
    const { body } = await call(relay.app, 'GET', `/admin/v1/tenants/${tenant.id}`, 200, { token: TEST_OPERATOR_TOKEN });
    expect(body.tenant.limits).toEqual({ burst_per_minute: 100, sustained_per_minute: 20, daily_quota: 100, events_per_minute: 100, webhooks_per_minute: 300 });
  });

  it('burst: the 101st authenticated request in a minute is 429 {"error":"Rate limit exceeded"}, whatever the endpoint', async () => {
    const tenant = await provisionTenant(relay.app);
    for (let i = 0; i < 100; i++) {
      const { headers } = await call(relay.app, 'GET', '/api/messages/msg_000000000000000000000000', 404, { token: tenant.apiKey });
      expect(headers['ratelimit-remaining']).toBe(String(99 - i));
    }
    const refused = await call(relay.app, 'POST', '/api/messages/send', 429, { token: tenant.apiKey, payload: sendBody() });
    expect(refused.body).toEqual({ error: 'Rate limit exceeded' });
    expectLimitHeaders(refused.headers, 100, 30);
    // Unauthenticated requests do not use the tenant's burst; the next minute starts afresh.
    await call(relay.app, 'POST', '/api/messages/send', 401, { payload: sendBody() });
    clock.advance(30_000);
    await call(relay.app, 'GET', '/api/messages/msg_000000000000000000000000', 404, { token: tenant.apiKey });
  });

  it('sustained: the 21st accepted message in a minute is 429 {"error":"Too many requests in the last minute"}; refusals and replays use nothing', async () => {
    const tenant = await provisionTenant(relay.app);
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready' });
    const first = sendBody();
    await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: first });
    for (let i = 0; i < 19; i++) await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: sendBody() });
    await call(relay.app, 'POST', '/api/messages/send', 422, { token: tenant.apiKey, payload: sendBody({ event_key: 'missing' }) });
    const refused = await call(relay.app, 'POST', '/api/messages/send', 429, { token: tenant.apiKey, payload: sendBody() });
    expect(refused.body).toEqual({ error: 'Too many requests in the last minute' });
    expectLimitHeaders(refused.headers, 20, 30);
    // A replay of an accepted message still answers 200 (it counts against no limit).
    await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: first });
    const count = await relay.app.database.db.selectFrom('msg_messages').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', tenant.id).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(20);
    clock.advance(30_000);
    await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: sendBody() });
  });

  it('daily quota: the 101st accepted message of the UTC day is 429 {"error":"Daily quota exceeded"}', async () => {
    const tenant = await provisionTenant(relay.app, { limits: { burst_per_minute: 10_000, sustained_per_minute: 10_000 } });
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready' });
    for (let i = 0; i < 100; i++) await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: sendBody() });
    const refused = await call(relay.app, 'POST', '/api/messages/send', 429, { token: tenant.apiKey, payload: sendBody() });
    expect(refused.body).toEqual({ error: 'Daily quota exceeded' });
    expectLimitHeaders(refused.headers, 100, 12 * 3600 - 30);
  });

  it('per-tenant overrides, and null returns a limit to its default', async () => {
    const tenant = await provisionTenant(relay.app, { limits: { burst_per_minute: 3 } });
    for (let i = 0; i < 3; i++) await call(relay.app, 'GET', '/api/messages/msg_x', 404, { token: tenant.apiKey });
    const refused = await call(relay.app, 'GET', '/api/messages/msg_x', 429, { token: tenant.apiKey });
    expectLimitHeaders(refused.headers, 3, 30);
    const other = await provisionTenant(relay.app);
    await call(relay.app, 'GET', '/api/messages/msg_x', 404, { token: other.apiKey });
    const patched = await call(relay.app, 'PATCH', `/admin/v1/tenants/${tenant.id}`, 200, { token: TEST_OPERATOR_TOKEN, payload: { limits: { burst_per_minute: null, daily_quota: 5 } } });
    expect(patched.body.tenant.limits).toMatchObject({ burst_per_minute: 100, daily_quota: 5 });
    await call(relay.app, 'GET', '/api/messages/msg_x', 404, { token: tenant.apiKey });
  });

  it('events: the 101st accepted event in a minute is 429 with the headers; duplicates count nothing', async () => {
    const tenant = await provisionTenant(relay.app, { limits: { burst_per_minute: 10_000 } });
    const event = (id: string) => ({ event_id: id, event_name: 'a.b', source: 's', org_id: tenant.orgId, actor: { type: 'system' }, data: {}, occurred_at: '2026-11-20T10:00:00Z' });
    for (let i = 0; i < 100; i++) await call(relay.app, 'POST', '/api/events', 202, { token: tenant.apiKey, payload: event(`e${i}`) });
    await call(relay.app, 'POST', '/api/events', 200, { token: tenant.apiKey, payload: event('e0') });
    const refused = await call(relay.app, 'POST', '/api/events', 429, { token: tenant.apiKey, payload: event('e100') });
    expect(refused.body).toEqual({ error: 'Rate limit exceeded' });
    expectLimitHeaders(refused.headers, 100, 30);
  });

  it('provider webhooks: batches touching a tenant beyond its limit get 429 with the headers; the retry is accepted later', async () => {
    const tenant = await provisionTenant(relay.app, { limits: { webhooks_per_minute: 2 } });
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready' });
    const { body } = await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: sendBody() });
    const post = (id: string, expected: number) => {
      const payload = JSON.stringify([{ event: 'delivered', sg_event_id: id, message_id: body.message_id, timestamp: Math.floor(clock.now() / 1000) }]);
      return call(relay.app, 'POST', '/api/webhooks/sendgrid', expected, { headers: signer.headers(payload, String(Math.floor(clock.now() / 1000))), payload });
    };
    await post('w1', 200);
    await post('w2', 200);
    const refused = await post('w3', 429);
    expect(refused.body).toEqual({ error: 'Rate limit exceeded' });
    expectLimitHeaders(refused.headers, 2, 30);
    clock.advance(30_000);
    const retried = await post('w3', 200);
    expect(retried.body.applied).toBe(1);
  });
});
