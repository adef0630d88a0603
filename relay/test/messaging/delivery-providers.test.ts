// Delivery through each provider, as an integrator would see it: the outbox by default (a real
// RFC 5322 .eml), a real SMTP server, a SendGrid-shaped endpoint; failover when the first provider
// fails; permanent rejections end as failed with the provider's response; transient ones retry.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, describeOnDatabases, TEST_OPERATOR_TOKEN } from '@ledgerwire/test-kit';
import { SendGridMock } from './support/sendgrid-mock.js';
import { SmtpSink } from './support/smtp-sink.js';
import { createTemplate, provisionTenant, sendBody, startMessagingRelay, type MessagingTestRelay } from './support/messaging-test-relay.js';

async function sendAndDispatch(relay: MessagingTestRelay, apiKey: string, overrides: Record<string, unknown> = {}) {
  const { body } = await call(relay.app, 'POST', '/api/messages/send', 200, { token: apiKey, payload: sendBody(overrides) });
  await relay.app.messaging.dispatchLoop.runOnce();
  const message = await call(relay.app, 'GET', `/api/messages/${body.message_id}`, 200, { token: apiKey });
  return message.body;
}

describeOnDatabases('delivery providers', (kind) => {
  let relay: MessagingTestRelay | undefined;
  let sendgrid: SendGridMock;
  let smtp: SmtpSink;

  beforeEach(async () => {
    sendgrid = new SendGridMock();
    smtp = new SmtpSink();
    await sendgrid.start();
    await smtp.start();
  });
  afterEach(async () => {
    await relay?.close();
    relay = undefined;
    await sendgrid.stop();
    await smtp.stop();
  });

  async function start(env: Record<string, string>, providerOrder?: string[]) {
    relay = await startMessagingRelay(kind, env);
    const tenant = await provisionTenant(relay.app, providerOrder ? { provider_order: providerOrder } : {});
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready', html: '<p>Hello {{name}}</p>', text: 'Hello {{name}}' });
    return { relay, tenant };
  }

  it('writes a real RFC 5322 .eml to DATA_DIR/outbox by default', async () => {
    const { relay, tenant } = await start({});
    const message = await sendAndDispatch(relay, tenant.apiKey);
    expect(message).toMatchObject({ status: 'sent', provider: 'outbox' });
    const file = path.join(relay.config.dataDir, 'outbox', `${message.message_id}.eml`);
    const eml = fs.readFileSync(file, 'utf8');
    const [head] = eml.split('\r\n\r\n');
    expect(head).toMatch(/^From: Ledgerwire <no-reply@ledgerwire\.localhost>$/m);
    expect(head).toMatch(/^To: ada@example\.com$/m);
    expect(head).toMatch(/^Subject: Your invoice INV-1$/m);
    expect(head).toMatch(new RegExp(`^Message-ID: <${message.message_id}@ledgerwire\\.localhost>$`, 'm'));
    expect(head).toMatch(/^Date: .+$/m);
    expect(head).toMatch(/^MIME-Version: 1\.0$/m);
    expect(head).toMatch(/^Content-Type: multipart\/alternative;/m);
    expect(eml).toContain('Hello Ada');
    expect(message.provider_message_id).toBe(`<${message.message_id}@ledgerwire.localhost>`);
  });

  it('delivers through a real SMTP server with smtp config', async () => {
    const { relay, tenant } = await start({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), MESSAGING_PROVIDERS: 'smtp', MAIL_FROM: 'Billing <billing@acme.test>' });
    const message = await sendAndDispatch(relay, tenant.apiKey);
    expect(message).toMatchObject({ status: 'sent', provider: 'smtp' });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]).toMatchObject({ from: 'billing@acme.test', to: ['ada@example.com'] });
    expect(smtp.received[0]!.raw).toMatch(/^Subject: Your invoice INV-1$/m);
    expect(smtp.received[0]!.raw).toContain(`X-Ledgerwire-Message-ID: ${message.message_id}`);
    expect(fs.existsSync(path.join(relay.config.dataDir, 'outbox'))).toBe(false);
  });

  it('an SMTP 550 for the recipient is permanent: failed, with the server’s response on the message', async () => {
    smtp.rejectRecipients = true;
    const { relay, tenant } = await start({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), MESSAGING_PROVIDERS: 'smtp,outbox' });
    const message = await sendAndDispatch(relay, tenant.apiKey);
    expect(message, JSON.stringify(message.timeline)).toMatchObject({ status: 'failed' });
    expect(message.error).toContain('550');
    expect(message.error).toContain('Mailbox does not exist');
    expect(fs.existsSync(path.join(relay.config.dataDir, 'outbox'))).toBe(false);
  });

  it('sends SendGrid v3 Mail Send as documented and keeps X-Message-Id as the provider id', async () => {
    const { relay, tenant } = await start({ SENDGRID_API_KEY: sendgrid.apiKey, SENDGRID_BASE_URL: sendgrid.baseUrl, MESSAGING_PROVIDERS: 'sendgrid' });
    const message = await sendAndDispatch(relay, tenant.apiKey);
    expect(sendgrid.requests).toHaveLength(1);
    const request = sendgrid.requests[0]!;
    expect(request.status).toBe(202);
    expect(request.headers.authorization).toBe(`Bearer ${sendgrid.apiKey}`);
    expect(request.body).toEqual({
      personalizations: [{ to: [{ email: 'ada@example.com' }], custom_args: { message_id: message.message_id, tenant_id: tenant.id } }],
      from: { email: 'no-reply@ledgerwire.localhost', name: 'Ledgerwire' },
      subject: 'Your invoice INV-1',
      content: [
        { type: 'text/plain', value: 'Hello Ada' },
        { type: 'text/html', value: '<p>Hello Ada</p>' },
      ],
    });
    expect(message).toMatchObject({ status: 'sent', provider: 'sendgrid', provider_message_id: request.messageId });
  });

  it('fails over to the next provider when SendGrid answers 500, and records the attempt', async () => {
    sendgrid.failNext(500, { errors: [{ field: null, message: 'internal error' }] });
    const { relay, tenant } = await start({ SENDGRID_API_KEY: sendgrid.apiKey, SENDGRID_BASE_URL: sendgrid.baseUrl }, ['sendgrid', 'outbox']);
    const message = await sendAndDispatch(relay, tenant.apiKey);
    expect(message).toMatchObject({ status: 'sent', provider: 'outbox' });
    expect(message.timeline.map((e: { type: string }) => e.type)).toEqual(['queued', 'attempt_failed', 'sent']);
    expect(message.timeline[1]).toMatchObject({ provider: 'sendgrid', detail: { error: 'SendGrid 500: internal error' } });
    expect(fs.existsSync(path.join(relay.config.dataDir, 'outbox', `${message.message_id}.eml`))).toBe(true);
  });

  it('fails over when SMTP is unreachable', async () => {
    await smtp.stop();
    const { relay, tenant } = await start({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), MESSAGING_PROVIDER_TIMEOUT_MS: '2000' }, ['smtp', 'outbox']);
    const message = await sendAndDispatch(relay, tenant.apiKey);
    expect(message).toMatchObject({ status: 'sent', provider: 'outbox' });
    expect(message.timeline[1]).toMatchObject({ type: 'attempt_failed', provider: 'smtp' });
    smtp = new SmtpSink();
    await smtp.start();
  });

  it('a SendGrid 400 is permanent: failed with SendGrid’s error body, no failover', async () => {
    sendgrid.failNext(400, { errors: [{ message: 'Does not contain a valid address.', field: 'personalizations.0.to', help: 'http://sendgrid.com/docs/x' }] });
    const { relay, tenant } = await start({ SENDGRID_API_KEY: sendgrid.apiKey, SENDGRID_BASE_URL: sendgrid.baseUrl }, ['sendgrid', 'outbox']);
    const message = await sendAndDispatch(relay, tenant.apiKey);
    expect(message, JSON.stringify(message.timeline)).toMatchObject({ status: 'failed' });
    expect(message.error).toContain('SendGrid 400: personalizations.0.to: Does not contain a valid address.');
    expect(message.error).toContain('"help":"http://sendgrid.com/docs/x"');
    expect(fs.existsSync(path.join(relay.config.dataDir, 'outbox'))).toBe(false);
  });

  it('a SendGrid 429 with no other provider keeps the message queued for a retry with backoff', async () => {
    sendgrid.failNext(429, { errors: [{ field: null, message: 'too many requests' }] });
    const { relay, tenant } = await start({ SENDGRID_API_KEY: sendgrid.apiKey, SENDGRID_BASE_URL: sendgrid.baseUrl, MESSAGING_PROVIDERS: 'sendgrid' });
    const message = await sendAndDispatch(relay, tenant.apiKey);
    expect(message).toMatchObject({ status: 'queued', attempts: 1 });
    const retry = message.timeline.find((e: { type: string }) => e.type === 'retry_scheduled');
    expect(Date.parse(retry.detail.next_attempt_at)).toBeGreaterThan(Date.now());
    // Due again (as if the backoff had passed): the next pass sends it.
    await relay.app.database.db.updateTable('msg_messages').set({ next_attempt_at: new Date(0).toISOString() }).execute();
    await relay.app.messaging.dispatchLoop.runOnce();
    const after = await call(relay.app, 'GET', `/api/messages/${message.message_id}`, 200, { token: tenant.apiKey });
    expect(after.body).toMatchObject({ status: 'sent', provider: 'sendgrid', attempts: 2 });
  });

  it('opens the circuit after repeated failures and goes straight to the next provider', async () => {
    sendgrid.failNext(503, { errors: [{ field: null, message: 'unavailable' }] }, 5);
    const { relay, tenant } = await start({ SENDGRID_API_KEY: sendgrid.apiKey, SENDGRID_BASE_URL: sendgrid.baseUrl }, ['sendgrid', 'outbox']);
    for (let i = 0; i < 5; i++) await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: sendBody() });
    await relay.app.messaging.dispatchLoop.runOnce();
    expect(sendgrid.requests).toHaveLength(5);
    const message = await sendAndDispatch(relay, tenant.apiKey);
    expect(sendgrid.requests).toHaveLength(5);
    expect(message).toMatchObject({ status: 'sent', provider: 'outbox' });
    expect(message.timeline[1]).toMatchObject({ type: 'provider_skipped', provider: 'sendgrid' });
  });

  it('rejects a provider_order naming an unconfigured provider', async () => {
    const { relay, tenant } = await start({});
    const { body } = await call(relay.app, 'PATCH', `/admin/v1/tenants/${tenant.id}`, 422, { token: TEST_OPERATOR_TOKEN, payload: { provider_order: ['smtp'] } });
    expect(body.error.code).toBe('provider_not_configured');
  });
});
