// Concurrent sends over HTTP, which the relay writes in shared transactions (group commit): each
// request still gets its own answer — 200, 409 or 429 with the right body and headers — limits hold
// exactly, per tenant, and a refused message leaves no row behind.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnDatabases, midMinute, testClock } from '@ledgerwire/test-kit';
import { createTemplate, provisionTenant, sendBody, startMessagingRelay, type MessagingTestRelay } from './support/messaging-test-relay.js';

function sendAll(app: FastifyInstance, apiKey: string, payloads: Record<string, unknown>[]) {
  return Promise.all(payloads.map((payload) => app.inject({ method: 'POST', url: '/api/messages/send', headers: { authorization: `Bearer ${apiKey}` }, payload })));
}

describeOnDatabases('concurrent sends', (kind) => {
  let relay: MessagingTestRelay;

  // One relay per file (starting one is most of a test's time): each test sends as tenants of its own,
  // whose limits and idempotency are theirs alone, on a clock that never moves.
  beforeAll(async () => {
    relay = await startMessagingRelay(kind, {}, { now: testClock(midMinute()).now });
  });
  afterAll(async () => relay.close());

  const rowsOf = async (tenantId: string) => relay.app.database.db.selectFrom('msg_messages').select('id').where('tenant_id', '=', tenantId).execute();

  it('8 at once against a daily quota of 5: five 200, three 429 "Daily quota exceeded" with headers, five rows', async () => {
    const tenant = await provisionTenant(relay.app, { limits: { daily_quota: 5, sustained_per_minute: 1000 } });
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready' });
    const responses = await sendAll(relay.app, tenant.apiKey, Array.from({ length: 8 }, () => sendBody()));
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    for (const refused of responses.filter((r) => r.statusCode === 429)) {
      expect(refused.json()).toEqual({ error: 'Daily quota exceeded' });
      expect(refused.headers).toMatchObject({ 'ratelimit-limit': '5', 'ratelimit-remaining': '0', 'retry-after': String(12 * 3600 - 30) });
    }
    const accepted = new Set(responses.filter((r) => r.statusCode === 200).map((r) => r.json<{ message_id: string }>().message_id));
    expect(accepted.size).toBe(5);
    expect((await rowsOf(tenant.id)).map((row) => row.id).sort()).toEqual([...accepted].sort());
  });

  it('6 at once against a sustained limit of 3: three 200 and three 429 "Too many requests in the last minute"', async () => {
    const tenant = await provisionTenant(relay.app, { limits: { sustained_per_minute: 3 } });
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready' });
    const responses = await sendAll(relay.app, tenant.apiKey, Array.from({ length: 6 }, () => sendBody()));
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 429, 429, 429]);
    for (const refused of responses.filter((r) => r.statusCode === 429)) {
      expect(refused.json()).toEqual({ error: 'Too many requests in the last minute' });
      expect(refused.headers).toMatchObject({ 'ratelimit-limit': '3', 'retry-after': '30' });
    }
    expect(await rowsOf(tenant.id)).toHaveLength(3);
    // The refused ones used no daily quota either.
    const daily = await relay.app.database.db.selectFrom('rate_limit_counters').select('count').where('scope', '=', `msg-daily:${tenant.id}`).executeTakeFirst();
    expect(daily?.count).toBe(3);
  });

  it('one transaction_id sent at once with two bodies: one message; the same body 200 with its id, the other 409', async () => {
    const tenant = await provisionTenant(relay.app);
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready' });
    const body = sendBody();
    const other = { ...body, subject: 'Something else' };
    const responses = await sendAll(relay.app, tenant.apiKey, [...Array.from({ length: 10 }, () => body), ...Array.from({ length: 5 }, () => other)]);
    const rows = await rowsOf(tenant.id);
    expect(rows).toHaveLength(1);
    const winner = responses.findIndex((r) => r.statusCode === 200);
    const sameAsWinner = (index: number) => (index < 10) === (winner < 10);
    responses.forEach((response, index) => {
      if (sameAsWinner(index)) {
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({ message_id: rows[0]!.id, status: 'queued' });
      } else {
        expect(response.statusCode).toBe(409);
        expect(response.json<{ error: string }>().error).toContain(`transaction_id "${String(body.transaction_id)}"`);
      }
    });
  });

  it('two tenants sending at once are each held to their own quota; a concurrent replay uses none', async () => {
    const a = await provisionTenant(relay.app, { limits: { daily_quota: 2 } });
    const b = await provisionTenant(relay.app, { limits: { daily_quota: 2 } });
    for (const tenant of [a, b]) await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready' });
    const first = sendBody();
    const stored = await sendAll(relay.app, a.apiKey, [first]);
    const [fromA, fromB] = await Promise.all([sendAll(relay.app, a.apiKey, [first, sendBody(), sendBody()]), sendAll(relay.app, b.apiKey, [sendBody(), sendBody(), sendBody()])]);
    expect(fromA[0]!.json()).toEqual(stored[0]!.json());
    expect(fromA.map((r) => r.statusCode).sort()).toEqual([200, 200, 429]);
    expect(fromB.map((r) => r.statusCode).sort()).toEqual([200, 200, 429]);
    expect(await rowsOf(a.id)).toHaveLength(2);
    expect(await rowsOf(b.id)).toHaveLength(2);
  });
});
