// Suppressions, on SQLite and PostgreSQL: a hard bounce, a spam report or an unsubscribe — signed as
// SendGrid signs its Event Webhook — puts the address on the tenant's list with its reason and time; a
// soft bounce does not. A later send to it is answered 200 queued, as the contract says, but never
// reaches a provider: it ends failed with the stable reason `suppressed`. The list is read and
// cleared through the tenant's API key, and one tenant's list never touches another's sends.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, describeOnDatabases } from '@ledgerwire/test-kit';
import { SendGridMock } from './support/sendgrid-mock.js';
import { SendGridSigner } from './support/sendgrid-signer.js';
import { createTemplate, provisionTenant, sendBody, startMessagingRelay, type MessagingTestRelay, type ProvisionedTenant } from './support/messaging-test-relay.js';

describeOnDatabases('suppressions', (kind) => {
  let relay: MessagingTestRelay;
  let tenant: ProvisionedTenant;
  let sendgrid: SendGridMock;
  const signer = new SendGridSigner();

  beforeEach(async () => {
    sendgrid = new SendGridMock();
    await sendgrid.start();
    relay = await startMessagingRelay(kind, {
      SENDGRID_API_KEY: sendgrid.apiKey,
      SENDGRID_BASE_URL: sendgrid.baseUrl,
      SENDGRID_WEBHOOK_PUBLIC_KEY: signer.publicKeyBase64,
      MESSAGING_PROVIDERS: 'sendgrid',
    });
    tenant = await provisionTenant(relay.app);
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready' });
  });
  afterEach(async () => {
    await relay.close();
    await sendgrid.stop();
  });

  async function sendAndDispatch(apiKey: string, to: string) {
    const { body } = await call(relay.app, 'POST', '/api/messages/send', 200, { token: apiKey, payload: sendBody({ to }) });
    expect(body.status).toBe('queued');
    await relay.app.messaging.dispatchLoop.runOnce();
    return (await call(relay.app, 'GET', `/api/messages/${body.message_id}`, 200, { token: apiKey })).body;
  }

  async function report(messageId: string, email: string, type: string, extra: Record<string, unknown> = {}) {
    const body = JSON.stringify([{ email, timestamp: Math.floor(Date.now() / 1000), event: type, sg_event_id: `ev-${messageId}-${type}`, message_id: messageId, ...extra }]);
    await call(relay.app, 'POST', '/api/webhooks/sendgrid', 200, { headers: signer.headers(body, String(Math.floor(Date.now() / 1000))), payload: body });
  }

  const list = async (apiKey = tenant.apiKey) => (await call(relay.app, 'GET', '/api/suppressions', 200, { token: apiKey })).body.suppressions;

  it('a signed hard bounce suppresses the address: the next send is accepted, ends failed (suppressed) and never reaches SendGrid', async () => {
    const first = await sendAndDispatch(tenant.apiKey, 'Gone@Example.com');
    expect(first.status).toBe('sent');
    await report(first.message_id, 'Gone@Example.com', 'bounce', { type: 'bounce', reason: '550 5.1.1 unknown user' });
    const suppressions = await list();
    expect(suppressions).toEqual([{ email: 'gone@example.com', reason: 'hard_bounce', created_at: expect.any(String) }]);
    expect(Date.parse(suppressions[0].created_at)).toBeGreaterThan(Date.now() - 60_000);

    const next = await sendAndDispatch(tenant.apiKey, 'gone@example.com');
    expect(next.status).toBe('failed');
    expect(next.error).toMatch(/^suppressed: gone@example\.com is on this tenant's suppression list \(hard_bounce since /);
    expect(next.provider).toBeNull();
    expect(next.timeline.at(-1)).toMatchObject({ type: 'failed', detail: { reason: 'suppressed', suppression_reason: 'hard_bounce' } });
    expect(sendgrid.requests).toHaveLength(1);
  });

  it('a soft bounce (blocked) does not suppress; a spam report and an unsubscribe do', async () => {
    const soft = await sendAndDispatch(tenant.apiKey, 'soft@example.com');
    await report(soft.message_id, 'soft@example.com', 'bounce', { type: 'blocked', reason: 'mailbox full' });
    const spam = await sendAndDispatch(tenant.apiKey, 'spam@example.com');
    await report(spam.message_id, 'spam@example.com', 'spamreport');
    const unsub = await sendAndDispatch(tenant.apiKey, 'unsub@example.com');
    await report(unsub.message_id, 'unsub@example.com', 'unsubscribe');
    const reasons = Object.fromEntries((await list()).map((s: { email: string; reason: string }) => [s.email, s.reason]));
    expect(reasons).toEqual({ 'spam@example.com': 'spam_report', 'unsub@example.com': 'unsubscribe' });
    expect((await sendAndDispatch(tenant.apiKey, 'soft@example.com')).status).toBe('sent');
  });

  it('DELETE /api/suppressions/{email} clears one address, after which sends reach the provider; an unknown address is a 404', async () => {
    const first = await sendAndDispatch(tenant.apiKey, 'back@example.com');
    await report(first.message_id, 'back@example.com', 'spamreport');
    const removed = await call(relay.app, 'DELETE', '/api/suppressions/BACK@example.com', 200, { token: tenant.apiKey });
    expect(removed.body).toEqual({ email: 'back@example.com', status: 'removed' });
    expect(await list()).toEqual([]);
    expect((await sendAndDispatch(tenant.apiKey, 'back@example.com')).status).toBe('sent');
    const missing = await call(relay.app, 'DELETE', '/api/suppressions/back@example.com', 404, { token: tenant.apiKey });
    expect(missing.body).toEqual({ error: 'This address is not on your suppression list' });
    await call(relay.app, 'GET', '/api/suppressions', 401, {});
  });

  it('one tenant’s suppression never touches another tenant’s sends or list', async () => {
    const other = await provisionTenant(relay.app);
    await createTemplate(relay.app, other.id, { event_key: 'invoice_ready' });
    const first = await sendAndDispatch(tenant.apiKey, 'shared@example.com');
    await report(first.message_id, 'shared@example.com', 'bounce', { type: 'bounce' });
    expect(await list(other.apiKey)).toEqual([]);
    expect((await sendAndDispatch(other.apiKey, 'shared@example.com')).status).toBe('sent');
    await call(relay.app, 'DELETE', '/api/suppressions/shared@example.com', 404, { token: other.apiKey });
  });
});
