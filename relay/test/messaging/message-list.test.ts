// GET /api/messages, on SQLite and PostgreSQL: oldest first, filtered by status, tag, to and since,
// paged by next_cursor without repeating or skipping a message, only the tenant's own; a cursor this
// API did not give is a 422.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, describeOnDatabases, midMinute, testClock } from '@ledgerwire/test-kit';
import { createTemplate, provisionTenant, sendBody, startMessagingRelay, type MessagingTestRelay, type ProvisionedTenant } from './support/messaging-test-relay.js';

describeOnDatabases('reading messages', (kind) => {
  let relay: MessagingTestRelay;
  let tenant: ProvisionedTenant;
  const clock = testClock(midMinute());

  beforeEach(async () => {
    clock.set(midMinute());
    relay = await startMessagingRelay(kind, {}, { now: clock.now });
    tenant = await provisionTenant(relay.app);
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready' });
  });
  afterEach(async () => {
    await relay.close();
  });

  async function send(overrides: Record<string, unknown>): Promise<string> {
    clock.advance(1000);
    return (await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: sendBody(overrides) })).body.message_id;
  }
  const list = async (query: string, apiKey = tenant.apiKey) => (await call(relay.app, 'GET', `/api/messages${query}`, 200, { token: apiKey })).body;

  it('filters by tag, to, status and since, oldest first', async () => {
    const a = await send({ tags: ['invoice'], to: 'Ada@example.com', metadata: { invoice_id: 'INV-1' } });
    const b = await send({ tags: ['invoice', 'reminder'], to: 'bob@example.com' });
    const c = await send({ tags: ['reminder'], to: 'ada@example.com' });
    expect((await list('')).messages.map((m: { message_id: string }) => m.message_id)).toEqual([a, b, c]);
    expect((await list('?tag=invoice')).messages.map((m: { message_id: string }) => m.message_id)).toEqual([a, b]);
    expect((await list('?to=ADA@example.com')).messages.map((m: { message_id: string }) => m.message_id)).toEqual([a, c]);
    expect((await list('?tag=reminder&to=ada@example.com')).messages.map((m: { message_id: string }) => m.message_id)).toEqual([c]);
    const since = new Date(clock.now() - 1000).toISOString();
    expect((await list(`?since=${encodeURIComponent(since)}`)).messages.map((m: { message_id: string }) => m.message_id)).toEqual([b, c]);
    expect((await list('?status=queued')).messages).toHaveLength(3);
    expect((await list('?status=sent')).messages).toEqual([]);
    expect((await list('?tag=invoice')).messages[0]).toMatchObject({ message_id: a, status: 'queued', to: 'Ada@example.com', metadata: { invoice_id: 'INV-1' }, tags: ['invoice'] });
  });

  it('pages with next_cursor, never repeating or skipping, even as messages arrive', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await send({}));
    const first = await list('?limit=2');
    expect(first.messages.map((m: { message_id: string }) => m.message_id)).toEqual(ids.slice(0, 2));
    ids.push(await send({}));
    const second = await list(`?limit=2&cursor=${first.next_cursor}`);
    const third = await list(`?limit=2&cursor=${second.next_cursor}`);
    expect([...second.messages, ...third.messages].map((m: { message_id: string }) => m.message_id)).toEqual(ids.slice(2, 6));
    expect(third.next_cursor).toBeNull();
  });

  it('shows only the tenant’s own messages; a bad cursor, status or since is a 422', async () => {
    await send({});
    const other = await provisionTenant(relay.app);
    expect((await list('', other.apiKey)).messages).toEqual([]);
    const bad = await call(relay.app, 'GET', '/api/messages?cursor=nonsense', 422, { token: tenant.apiKey });
    expect(bad.body.errors.cursor[0]).toContain('not a next_cursor');
    await call(relay.app, 'GET', '/api/messages?status=lost', 422, { token: tenant.apiKey });
    await call(relay.app, 'GET', '/api/messages?since=yesterday', 422, { token: tenant.apiKey });
    await call(relay.app, 'GET', '/api/messages?limit=101', 422, { token: tenant.apiKey });
  });
});
