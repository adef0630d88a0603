// Messages every provider accepts, never sent twice (issue 22, item 3):
// - SendGrid's published Mail Send schema (twilio/sendgrid-oai spec/json/tsg_mail_v3.json) wants at
//   least one character in every `content[].value` and in `subject`: an empty text or HTML part is
//   left out, and a message with nothing to send is refused when the template is saved or at send
//   time, in words, with nothing stored;
// - a SendGrid 202 without X-Message-Id was sent: it is not failed over to another provider;
// - SMTP with STARTTLS against a real SMTP server process with a self-signed certificate: trusted
//   through SMTP_CA_FILE (+ SMTP_TLS_SERVERNAME), refused without it, STARTTLS required or off.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, describeOnDatabases, TEST_OPERATOR_TOKEN } from '@ledgerwire/test-kit';
import { createTemplate, provisionTenant, sendBody, startMessagingRelay, type MessagingTestRelay } from './support/messaging-test-relay.js';
import { SendGridMock } from './support/sendgrid-mock.js';
import { CERTIFICATE_NAME, startStarttlsSmtpProcess, type StarttlsSmtpProcess } from './support/starttls-smtp-process.js';

describeOnDatabases('messages every provider accepts', (kind) => {
  let relay: MessagingTestRelay | undefined;
  let sendgrid: SendGridMock;
  let smtpProcess: StarttlsSmtpProcess | undefined;

  beforeEach(async () => {
    sendgrid = new SendGridMock();
    await sendgrid.start();
  });
  afterEach(async () => {
    await relay?.close();
    relay = undefined;
    await sendgrid.stop();
    await smtpProcess?.stop();
    smtpProcess = undefined;
  });

  async function startWith(env: Record<string, string>, providerOrder?: string[]) {
    relay = await startMessagingRelay(kind, env);
    const tenant = await provisionTenant(relay.app, providerOrder ? { provider_order: providerOrder } : {});
    return { relay, tenant };
  }

  const sendgridEnv = () => ({ SENDGRID_API_KEY: sendgrid.apiKey, SENDGRID_BASE_URL: sendgrid.baseUrl, MESSAGING_PROVIDERS: 'sendgrid' });

  async function sendAndDispatch(r: MessagingTestRelay, apiKey: string, overrides: Record<string, unknown> = {}) {
    const { body } = await call(r.app, 'POST', '/api/messages/send', 200, { token: apiKey, payload: sendBody(overrides) });
    await r.app.messaging.dispatchLoop.runOnce();
    return (await call(r.app, 'GET', `/api/messages/${body.message_id}`, 200, { token: apiKey })).body;
  }

  it('leaves an empty text part out of what goes to SendGrid, and SendGrid takes the message', async () => {
    const { relay, tenant } = await startWith(sendgridEnv());
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready', html: '<p>Hello {{name}}</p>', text: '' });
    const message = await sendAndDispatch(relay, tenant.apiKey);
    expect(sendgrid.requests).toHaveLength(1);
    expect(sendgrid.requests[0]!.status).toBe(202);
    expect(sendgrid.requests[0]!.body.content).toEqual([{ type: 'text/html', value: '<p>Hello Ada</p>' }]);
    expect(message).toMatchObject({ status: 'sent', provider: 'sendgrid' });
  });

  it('leaves an HTML part that renders empty out, and sends the text part alone', async () => {
    const { relay, tenant } = await startWith(sendgridEnv());
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready', html: '{{{body_html}}}', text: 'Hello {{name}}' });
    const message = await sendAndDispatch(relay, tenant.apiKey);
    expect(sendgrid.requests[0]!.body.content).toEqual([{ type: 'text/plain', value: 'Hello Ada' }]);
    expect(message).toMatchObject({ status: 'sent', provider: 'sendgrid' });
  });

  it('refuses at send time, in words, a message whose parts all render empty, and stores nothing', async () => {
    const { relay, tenant } = await startWith(sendgridEnv());
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready', html: '{{{body_html}}}' });
    const payload = sendBody();
    const refused = await call(relay.app, 'POST', '/api/messages/send', 422, { token: tenant.apiKey, payload });
    expect(refused.body).toEqual({ error: expect.stringContaining('The message has no content') });
    // Nothing was stored under that transaction id: the same id goes through once the data fits.
    await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: { ...payload, data: { name: 'Ada', body_html: '<p>Hi</p>' } } });
    expect(sendgrid.requests).toHaveLength(0);
  });

  it('refuses at send time a subject that renders empty', async () => {
    const { relay, tenant } = await startWith(sendgridEnv());
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready' });
    const refused = await call(relay.app, 'POST', '/api/messages/send', 422, { token: tenant.apiKey, payload: sendBody({ subject: '{{missing}}' }) });
    expect(refused.body).toEqual({ error: expect.stringContaining('The subject is empty') });
  });

  it('refuses to save a template whose html and text are both blank', async () => {
    const { relay, tenant } = await startWith({});
    const refused = await call(relay.app, 'POST', `/admin/v1/tenants/${tenant.id}/templates`, 422, {
      token: TEST_OPERATOR_TOKEN,
      payload: { channel: 'email', event_key: 'blank', subject: 'S', html: '   ', text: '', is_active: true },
    });
    expect(refused.body.error).toMatchObject({ code: 'template_content_empty' });
    const id = await createTemplate(relay.app, tenant.id, { event_key: 'blank', html: '<p>x</p>' });
    const patched = await call(relay.app, 'PATCH', `/admin/v1/tenants/${tenant.id}/templates/${id}`, 422, {
      token: TEST_OPERATOR_TOKEN,
      payload: { html: ' ', text: null },
    });
    expect(patched.body.error).toMatchObject({ code: 'template_content_empty' });
  });

  it('counts a SendGrid 202 without X-Message-Id as sent: no failover, no second send', async () => {
    const { relay, tenant } = await startWith({ SENDGRID_API_KEY: sendgrid.apiKey, SENDGRID_BASE_URL: sendgrid.baseUrl }, ['sendgrid', 'outbox']);
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready', text: 'Hello {{name}}' });
    sendgrid.acceptWithoutMessageId = 1;
    const message = await sendAndDispatch(relay, tenant.apiKey);
    expect(sendgrid.requests).toHaveLength(1);
    expect(message).toMatchObject({ status: 'sent', provider: 'sendgrid', provider_message_id: null, attempts: 1 });
    expect(fs.existsSync(path.join(relay.config.dataDir, 'outbox'))).toBe(false);
    await relay.app.messaging.dispatchLoop.runOnce();
    expect(sendgrid.requests).toHaveLength(1);
  });

  const smtpEnv = (port: number, extra: Record<string, string>) => ({
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(port),
    MESSAGING_PROVIDERS: 'smtp',
    MESSAGING_PROVIDER_TIMEOUT_MS: '5000',
    ...extra,
  });

  it('sends over STARTTLS to a server with a self-signed certificate once its CA is configured', async () => {
    smtpProcess = await startStarttlsSmtpProcess({ offerStarttls: true });
    const { relay, tenant } = await startWith(
      smtpEnv(smtpProcess.port, { SMTP_STARTTLS: 'require', SMTP_CA_FILE: smtpProcess.caFile, SMTP_TLS_SERVERNAME: CERTIFICATE_NAME }),
    );
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready', text: 'Hello {{name}}' });
    const message = await sendAndDispatch(relay, tenant.apiKey);
    expect(message, JSON.stringify(message.timeline)).toMatchObject({ status: 'sent', provider: 'smtp' });
    const mail = await smtpProcess.nextMail();
    expect(mail).toMatchObject({ secure: true, to: ['ada@example.com'] });
    expect(mail.raw).toMatch(/^Subject: Your invoice INV-1$/m);
  });

  it('does not trust the self-signed certificate without the CA: the message waits for a retry', async () => {
    smtpProcess = await startStarttlsSmtpProcess({ offerStarttls: true });
    const { relay, tenant } = await startWith(smtpEnv(smtpProcess.port, { SMTP_STARTTLS: 'require', SMTP_TLS_SERVERNAME: CERTIFICATE_NAME }));
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready' });
    const message = await sendAndDispatch(relay, tenant.apiKey);
    expect(message.status).toBe('queued');
    expect(JSON.stringify(message.timeline)).toMatch(/self[- ]signed certificate/i);
    expect(smtpProcess.received).toHaveLength(0);
  });

  it('with STARTTLS required, a server that does not offer it gets nothing', async () => {
    smtpProcess = await startStarttlsSmtpProcess({ offerStarttls: false });
    const { relay, tenant } = await startWith(smtpEnv(smtpProcess.port, { SMTP_STARTTLS: 'require', SMTP_CA_FILE: smtpProcess.caFile }));
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready' });
    const message = await sendAndDispatch(relay, tenant.apiKey);
    expect(message.status, JSON.stringify(message)).toBe('queued');
    expect(JSON.stringify(message.timeline)).toMatch(/STARTTLS/);
    expect(smtpProcess.received).toHaveLength(0);
  });

  it('with STARTTLS off, sends in plain text even when the server offers it', async () => {
    smtpProcess = await startStarttlsSmtpProcess({ offerStarttls: true });
    const { relay, tenant } = await startWith(smtpEnv(smtpProcess.port, { SMTP_STARTTLS: 'off' }));
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready' });
    const message = await sendAndDispatch(relay, tenant.apiKey);
    expect(message).toMatchObject({ status: 'sent', provider: 'smtp' });
    expect(await smtpProcess.nextMail()).toMatchObject({ secure: false });
  });
});
