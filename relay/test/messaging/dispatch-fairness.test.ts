// A backlog never delays a new message by more than its share (issue 22, item 4): the dispatcher
// serves tenants in turn, so one tenant's backlog of more than a claim leaves room in the very next
// claim for another tenant's message; and every message of a pass is recorded, whatever its tenant.
// A pass makes several claims, each while the previous one is with the providers: the newcomer still
// goes out in the pass, and every claim of the pass is recorded, once, before the pass ends.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { call, describeOnDatabases } from '@ledgerwire/test-kit';
import { createTemplate, provisionTenant, sendBody, startMessagingRelay, type MessagingTestRelay } from './support/messaging-test-relay.js';

const CLAIM = 200; // dispatch-worker.ts BATCH

describeOnDatabases('dispatch serves tenants in turn', (kind) => {
  let relay: MessagingTestRelay | undefined;
  afterEach(async () => {
    await relay?.close();
    relay = undefined;
  });

  /** A bulk tenant with `backlog` queued messages, then a quiet tenant's one newer message. */
  async function backlogThenNewcomer(env: Record<string, string>, backlog: number) {
    const started = await startMessagingRelay(kind, env);
    relay = started;
    const unlimited = { burst_per_minute: 100_000, sustained_per_minute: 100_000, daily_quota: 100_000 };
    const bulk = await provisionTenant(started.app, { limits: unlimited });
    const quiet = await provisionTenant(started.app, { limits: unlimited });
    await createTemplate(started.app, bulk.id, { event_key: 'invoice_ready' });
    await createTemplate(started.app, quiet.id, { event_key: 'invoice_ready' });
    for (let i = 0; i < backlog; i += 25) {
      await Promise.all(
        Array.from({ length: Math.min(25, backlog - i) }, () => call(started.app, 'POST', '/api/messages/send', 200, { token: bulk.apiKey, payload: sendBody() })),
      );
    }
    const newcomer = await call(started.app, 'POST', '/api/messages/send', 200, { token: quiet.apiKey, payload: sendBody() });
    return { relay: started, bulk, quiet, newcomerId: newcomer.body.message_id as string };
  }

  it("sends a quiet tenant's new message in the first claim behind another tenant's larger backlog", async () => {
    const backlog = CLAIM + 50;
    const { relay, bulk, quiet, newcomerId } = await backlogThenNewcomer({ MESSAGING_DISPATCH_CLAIMS_PER_PASS: '1' }, backlog);

    await relay.app.messaging.dispatchLoop.runOnce(); // workers are off: exactly one pass, here of one claim

    const message = await call(relay.app, 'GET', `/api/messages/${newcomerId}`, 200, { token: quiet.apiKey });
    expect(message.body).toMatchObject({ status: 'sent', provider: 'outbox', attempts: 1 });
    const db = relay.app.database.db;
    const counts = await db
      .selectFrom('msg_messages')
      .select(['tenant_id', 'status', (eb) => eb.fn.countAll().as('n')])
      .groupBy(['tenant_id', 'status'])
      .execute();
    const count = (tenant: string, status: string) => Number(counts.find((c) => c.tenant_id === tenant && c.status === status)?.n ?? 0);
    // The claim was full: the newcomer took one slot, the backlog the rest, oldest first.
    expect(count(bulk.id, 'sent')).toBe(CLAIM - 1);
    expect(count(bulk.id, 'queued')).toBe(backlog - (CLAIM - 1));
    // Each sent message has its `queued` and `sent` timeline entries, recorded with the pass.
    const sentEntries = await db.selectFrom('msg_message_events').select((eb) => eb.fn.countAll().as('n')).where('type', '=', 'sent').executeTakeFirstOrThrow();
    expect(Number(sentEntries.n)).toBe(CLAIM);

    await relay.app.messaging.dispatchLoop.runOnce();
    const left = await db.selectFrom('msg_messages').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'queued').executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
  });

  it('records every claim of a pass once before it ends, and the newcomer goes out in it ahead of older backlog', async () => {
    const claims = 2;
    const backlog = claims * CLAIM + 50;
    const { relay, bulk, quiet, newcomerId } = await backlogThenNewcomer({ MESSAGING_DISPATCH_CLAIMS_PER_PASS: String(claims) }, backlog);

    await relay.app.messaging.dispatchLoop.runOnce(); // one pass: two claims, the second made while the first is out

    const message = await call(relay.app, 'GET', `/api/messages/${newcomerId}`, 200, { token: quiet.apiKey });
    expect(message.body).toMatchObject({ status: 'sent', provider: 'outbox', attempts: 1 });
    const db = relay.app.database.db;
    const statuses = await db
      .selectFrom('msg_messages')
      .select(['status', (eb) => eb.fn.countAll().as('n')])
      .where('tenant_id', '=', bulk.id)
      .groupBy('status')
      .execute();
    expect(Object.fromEntries(statuses.map((row) => [row.status, Number(row.n)]))).toEqual({ sent: claims * CLAIM - 1, queued: backlog - (claims * CLAIM - 1) });
    // Each message sent once: one `sent` entry and one .eml file apiece.
    const sentEntries = await db
      .selectFrom('msg_message_events')
      .select(['message_id', (eb) => eb.fn.countAll().as('n')])
      .where('type', '=', 'sent')
      .groupBy('message_id')
      .execute();
    expect(sentEntries).toHaveLength(claims * CLAIM);
    expect(sentEntries.every((row) => Number(row.n) === 1)).toBe(true);
    expect(fs.readdirSync(path.join(relay.config.dataDir, 'outbox')).filter((file) => file.endsWith('.eml'))).toHaveLength(claims * CLAIM);
    const leased = await db.selectFrom('msg_messages').select((eb) => eb.fn.countAll().as('n')).where('lease_until', 'is not', null).executeTakeFirstOrThrow();
    expect(Number(leased.n)).toBe(0); // no claim of the pass left out of its record

    await relay.app.messaging.dispatchLoop.runOnce();
    const left = await db.selectFrom('msg_messages').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'queued').executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
  });
});
