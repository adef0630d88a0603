// 50 identical sends at once create exactly one message and, once dispatched, exactly one .eml; a
// replay counts against no limit or quota. On PostgreSQL the 50 race on a real connection pool.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, describeOnDatabases, midMinute, testClock } from '@ledgerwire/test-kit';
import { createTemplate, provisionTenant, sendBody, startMessagingRelay, type MessagingTestRelay } from './support/messaging-test-relay.js';

describeOnDatabases('idempotency under concurrency', (kind) => {
  let relay: MessagingTestRelay;

  beforeEach(async () => {
    // A pinned clock keeps the quota check below inside one window.
    relay = await startMessagingRelay(kind, {}, { now: testClock(midMinute()).now });
  });
  afterEach(async () => relay.close());

  it('50 concurrent identical sends → one message, one .eml, one quota unit', async () => {
    const tenant = await provisionTenant(relay.app, { limits: { burst_per_minute: 1000, sustained_per_minute: 1000, daily_quota: 5 } });
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready' });
    const payload = sendBody();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => relay.app.inject({ method: 'POST', url: '/api/messages/send', headers: { authorization: `Bearer ${tenant.apiKey}` }, payload })),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array.from({ length: 50 }, () => 200));
    const ids = new Set(responses.map((r) => r.json<{ message_id: string }>().message_id));
    expect(ids.size).toBe(1);

    const db = relay.app.database.db;
    const rows = await db.selectFrom('msg_messages').select('id').execute();
    expect(rows).toHaveLength(1);
    const counters = await db.selectFrom('rate_limit_counters').select(['scope', 'count']).where('scope', 'like', 'msg-daily:%').execute();
    expect(counters).toEqual([{ scope: `msg-daily:${tenant.id}`, count: 1 }]);

    await Promise.all([relay.app.messaging.dispatchLoop.runOnce(), relay.app.messaging.dispatchLoop.runOnce()]);
    await relay.app.messaging.dispatchLoop.runOnce();
    const outbox = fs.readdirSync(path.join(relay.config.dataDir, 'outbox'));
    expect(outbox).toEqual([`${[...ids][0]}.eml`]);

    // Four more distinct messages fit the quota of 5: the 50 replays used one unit, not 50.
    for (let i = 0; i < 4; i++) await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: sendBody() });
    const over = await call(relay.app, 'POST', '/api/messages/send', 429, { token: tenant.apiKey, payload: sendBody() });
    expect(over.body).toEqual({ error: 'Daily quota exceeded' });
    await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload });
  });
});
