// Metadata and tags, on SQLite and PostgreSQL: bounded on the way in (a 422 naming the field, nothing
// stored), part of the idempotency fingerprint, returned by GET /api/messages/{id}, and echoed in
// every status webhook — the dispatcher's message.sent and the provider's message.delivered alike.
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, describeOnDatabases, startWebhookCatcher, TEST_OPERATOR_TOKEN, type WebhookCatcher } from '@ledgerwire/test-kit';
import { SendGridMock } from './support/sendgrid-mock.js';
import { SendGridSigner } from './support/sendgrid-signer.js';
import { createTemplate, provisionTenant, sendBody, startMessagingRelay, type MessagingTestRelay, type ProvisionedTenant } from './support/messaging-test-relay.js';

describeOnDatabases('metadata and tags', (kind) => {
  let relay: MessagingTestRelay;
  let tenant: ProvisionedTenant;
  let sendgrid: SendGridMock;
  let catcher: WebhookCatcher;
  const signer = new SendGridSigner();

  beforeEach(async () => {
    sendgrid = new SendGridMock();
    await sendgrid.start();
    catcher = await startWebhookCatcher();
    relay = await startMessagingRelay(kind, {
      SENDGRID_API_KEY: sendgrid.apiKey,
      SENDGRID_BASE_URL: sendgrid.baseUrl,
      SENDGRID_WEBHOOK_PUBLIC_KEY: signer.publicKeyBase64,
      MESSAGING_PROVIDERS: 'sendgrid',
      WEBHOOK_ALLOW_PRIVATE_URLS: '1',
    });
    tenant = await provisionTenant(relay.app);
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready' });
  });
  afterEach(async () => {
    await relay.close();
    await sendgrid.stop();
    await catcher.close();
  });

  const metadata = { invoice_id: 'INV-42', customer: 'C-7' };
  const tags = ['invoice', 'eu:west'];

  it('are returned by GET /api/messages/{id} and echoed in message.sent and message.delivered', async () => {
    const url = catcher.url();
    const hook = await call(relay.app, 'POST', `/admin/v1/tenants/${tenant.id}/webhooks`, 201, { token: TEST_OPERATOR_TOKEN, payload: { url } });
    const { body } = await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: sendBody({ metadata, tags }) });
    await relay.app.messaging.dispatchLoop.runOnce();
    const events = JSON.stringify([{ email: 'ada@example.com', timestamp: Math.floor(Date.now() / 1000), event: 'delivered', sg_event_id: 'd1', message_id: body.message_id }]);
    await call(relay.app, 'POST', '/api/webhooks/sendgrid', 200, { headers: signer.headers(events, String(Math.floor(Date.now() / 1000))), payload: events });
    await relay.app.webhooks.deliveryLoop.runOnce();

    const message = await call(relay.app, 'GET', `/api/messages/${body.message_id}`, 200, { token: tenant.apiKey });
    expect(message.body).toMatchObject({ status: 'delivered', metadata, tags });
    const verifier = new Webhook(hook.body.webhook.secret);
    const delivered = catcher.received.map((r) => verifier.verify(r.body, r.headers as Record<string, string>) as { type: string; data: Record<string, unknown> });
    expect(delivered.map((e) => e.type).sort()).toEqual(['message.delivered', 'message.sent']);
    for (const event of delivered) expect(event.data).toMatchObject({ message_id: body.message_id, metadata, tags });
  });

  it('a message without them reads {} and []', async () => {
    const { body } = await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: sendBody() });
    const message = await call(relay.app, 'GET', `/api/messages/${body.message_id}`, 200, { token: tenant.apiKey });
    expect(message.body).toMatchObject({ metadata: {}, tags: [] });
  });

  it('are part of the idempotency fingerprint', async () => {
    const payload = sendBody({ metadata, tags });
    const first = await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload });
    expect((await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload })).body.message_id).toBe(first.body.message_id);
    await call(relay.app, 'POST', '/api/messages/send', 409, { token: tenant.apiKey, payload: { ...payload, metadata: { invoice_id: 'INV-43' } } });
    await call(relay.app, 'POST', '/api/messages/send', 409, { token: tenant.apiKey, payload: { ...payload, tags: ['invoice'] } });
  });

  it.each([
    ['eleven metadata keys', { metadata: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, 'v'])) }, 'metadata', 'more than 10 keys'],
    ['a metadata value that is not a string', { metadata: { amount: 12 } }, 'metadata.amount', 'must be strings'],
    ['a metadata value over 500 characters', { metadata: { note: 'x'.repeat(501) } }, 'metadata.note', 'longer than 500'],
    ['eleven tags', { tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, 'tags', 'more than 10 items'],
    ['a tag with a space', { tags: ['two words'] }, 'tags.0', 'only letters, digits'],
    ['a tag twice', { tags: ['a', 'a'] }, 'tags', 'twice'],
  ])('%s is a 422 naming the field, and nothing is stored', async (_name, overrides, field, text) => {
    const refused = await call(relay.app, 'POST', '/api/messages/send', 422, { token: tenant.apiKey, payload: sendBody(overrides) });
    expect(JSON.stringify(refused.body.errors[field]), JSON.stringify(refused.body)).toContain(text);
    const stored = await relay.app.database.db.selectFrom('msg_messages').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(0);
  });
});
