// A backlog never delays a new message by more than its share (issue 22, item 4): the dispatcher
// serves tenants in turn, so one tenant's backlog of more than a pass leaves room in the very next
// pass for another tenant's message; and every message of a pass is recorded, whatever its tenant.
import { afterEach, expect, it } from 'vitest';
import { describeOnDatabases } from '../helpers/test-databases.js';
import { call } from '../helpers/test-relay.js';
import { createTemplate, provisionTenant, sendBody, startMessagingRelay, type MessagingTestRelay } from './support/messaging-test-relay.js';

const PASS = 200; // dispatch-worker.ts BATCH

describeOnDatabases('dispatch serves tenants in turn', (kind) => {
  let relay: MessagingTestRelay | undefined;
  afterEach(async () => {
    await relay?.close();
    relay = undefined;
  });

  it("sends a quiet tenant's new message in the first pass behind another tenant's larger backlog", async () => {
    relay = await startMessagingRelay(kind);
    const unlimited = { burst_per_minute: 100_000, sustained_per_minute: 100_000, daily_quota: 100_000 };
    const bulk = await provisionTenant(relay.app, { limits: unlimited });
    const quiet = await provisionTenant(relay.app, { limits: unlimited });
    await createTemplate(relay.app, bulk.id, { event_key: 'invoice_ready' });
    await createTemplate(relay.app, quiet.id, { event_key: 'invoice_ready' });
    const backlog = PASS + 50;
    for (let i = 0; i < backlog; i += 25) {
      await Promise.all(
        Array.from({ length: Math.min(25, backlog - i) }, () => call(relay!.app, 'POST', '/api/messages/send', 200, { token: bulk.apiKey, payload: sendBody() })),
      );
    }
    const newcomer = await call(relay.app, 'POST', '/api/messages/send', 200, { token: quiet.apiKey, payload: sendBody() });

    await relay.app.relay.messaging.dispatchLoop.runOnce(); // workers are off: exactly one pass

    const message = await call(relay.app, 'GET', `/api/messages/${newcomer.body.message_id}`, 200, { token: quiet.apiKey });
    expect(message.body).toMatchObject({ status: 'sent', provider: 'outbox', attempts: 1 });
    const db = relay.app.relay.database.db;
    const counts = await db
      .selectFrom('msg_messages')
      .select(['tenant_id', 'status', (eb) => eb.fn.countAll().as('n')])
      .groupBy(['tenant_id', 'status'])
      .execute();
    const count = (tenant: string, status: string) => Number(counts.find((c) => c.tenant_id === tenant && c.status === status)?.n ?? 0);
    // The pass was full: the newcomer took one slot, the backlog the rest, oldest first.
    expect(count(bulk.id, 'sent')).toBe(PASS - 1);
    expect(count(bulk.id, 'queued')).toBe(backlog - (PASS - 1));
    // Each sent message has its `queued` and `sent` timeline entries, recorded with the pass.
    const sentEntries = await db.selectFrom('msg_message_events').select((eb) => eb.fn.countAll().as('n')).where('type', '=', 'sent').executeTakeFirstOrThrow();
    expect(Number(sentEntries.n)).toBe(PASS);

    await relay.app.relay.messaging.dispatchLoop.runOnce();
    const left = await db.selectFrom('msg_messages').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'queued').executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
  });
});
