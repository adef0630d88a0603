// A dispatch claim's outcomes written one statement per kind (message-status-batch.ts), on SQLite and
// PostgreSQL: each row gets its own values (integers and text, some the same for every row, some
// not, some left as they were), a status moves only forward, and a retry touches only queued rows.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { call, describeOnDatabases } from '@ledgerwire/test-kit';
import { MessageRepository } from '../../src/messaging/store/messages/message-repository.js';
import { createTemplate, provisionTenant, sendBody, startMessagingRelay, type MessagingTestRelay } from './support/messaging-test-relay.js';

describeOnDatabases('dispatch outcomes in one statement per kind', (kind) => {
  let relay: MessagingTestRelay | undefined;
  let apiKey: string;
  let messages: MessageRepository;
  let ids: string[];

  // One relay per file (starting one is most of a test's time, and its workers are off); each test
  // works on four messages of its own, sent just before it.
  beforeAll(async () => {
    relay = await startMessagingRelay(kind);
    const tenant = await provisionTenant(relay.app);
    apiKey = tenant.apiKey;
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready' });
    messages = new MessageRepository(relay.app.database.db, relay.app.database.capabilities);
  });
  beforeEach(async () => {
    const app = relay!.app;
    ids = [];
    for (let i = 0; i < 4; i++) ids.push((await call(app, 'POST', '/api/messages/send', 200, { token: apiKey, payload: sendBody() })).body.message_id);
  });
  afterAll(async () => {
    await relay?.close();
    relay = undefined;
  });

  const row = async (id: string) => (await messages.find(id))!;

  it('moves each message with its own values, leaving a column a row does not name as it was', async () => {
    const [a, b, c] = ids as [string, string, string];
    const moved = await messages.inTransaction((tx) =>
      messages.advanceStatuses('sent', '2030-01-01T00:00:00.000Z', [
        { id: a, set: { provider: 'outbox', provider_message_id: '<a@x>', attempts: 1, lease_until: null, error: null } },
        { id: b, set: { provider: 'smtp', provider_message_id: '<b@x>', attempts: 3, lease_until: null, error: null } },
        { id: c, set: { provider_message_id: null, attempts: 2, lease_until: null, error: null } },
      ], tx),
    );
    expect([...moved].sort()).toEqual([a, b, c].sort());
    expect(await row(a)).toMatchObject({ status: 'sent', provider: 'outbox', provider_message_id: '<a@x>', attempts: 1, updated_at: '2030-01-01T00:00:00.000Z' });
    expect(await row(b)).toMatchObject({ status: 'sent', provider: 'smtp', provider_message_id: '<b@x>', attempts: 3 });
    expect(await row(c)).toMatchObject({ status: 'sent', provider: null, provider_message_id: null, attempts: 2 });
    expect(await row(ids[3]!)).toMatchObject({ status: 'queued', attempts: 0 }); // not named: untouched
  });

  it('moves a status forward only, and says which messages moved', async () => {
    const [a, b] = ids as [string, string];
    await messages.advanceStatuses('delivered', '2030-01-01T00:00:00.000Z', [{ id: a, set: {} }]);
    const moved = await messages.advanceStatuses('sent', '2030-01-02T00:00:00.000Z', [
      { id: a, set: { provider: 'outbox', attempts: 1 } },
      { id: b, set: { provider: 'outbox', attempts: 1 } },
    ]);
    expect([...moved]).toEqual([b]);
    expect(await row(a)).toMatchObject({ status: 'delivered', provider: null, attempts: 0, updated_at: '2030-01-01T00:00:00.000Z' });
  });

  it('schedules retries with their own attempts, times and errors, only for messages still queued', async () => {
    const [a, b, c] = ids as [string, string, string];
    await messages.advanceStatuses('failed', '2030-01-01T00:00:00.000Z', [{ id: c, set: { error: 'gone' } }]);
    await messages.scheduleRetries(
      [
        { id: a, attempts: 1, nextAttemptAt: '2030-01-01T00:00:05.000Z', error: 'SMTP 421: busy' },
        { id: b, attempts: 4, nextAttemptAt: '2030-01-01T00:01:00.000Z', error: 'SendGrid 429: slow down' },
        { id: c, attempts: 9, nextAttemptAt: '2030-01-01T00:09:00.000Z', error: 'not applied' },
      ],
      '2030-01-01T00:00:00.500Z',
    );
    expect(await row(a)).toMatchObject({ status: 'queued', attempts: 1, next_attempt_at: '2030-01-01T00:00:05.000Z', error: 'SMTP 421: busy', lease_until: null });
    expect(await row(b)).toMatchObject({ status: 'queued', attempts: 4, next_attempt_at: '2030-01-01T00:01:00.000Z', error: 'SendGrid 429: slow down' });
    expect(await row(c)).toMatchObject({ status: 'failed', attempts: 0, error: 'gone' });
  });
});
