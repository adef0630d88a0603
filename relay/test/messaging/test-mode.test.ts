// Test mode, on SQLite and PostgreSQL: a tenant's test key never reaches a real provider (SendGrid is
// first in its order, yet gets nothing): its messages are written to the outbox, and the documented
// simulator addresses bring delivered, bounced (hard, suppressing) and complained (suppressing)
// through the status webhooks as a provider's events would. Test and live sends have separate
// idempotency spaces.
import fs from 'node:fs';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, describeOnDatabases, startWebhookCatcher, TEST_OPERATOR_TOKEN, type WebhookCatcher } from '@ledgerwire/test-kit';
import { SendGridMock } from './support/sendgrid-mock.js';
import { createTemplate, provisionTenant, sendBody, startMessagingRelay, type MessagingTestRelay, type ProvisionedTenant } from './support/messaging-test-relay.js';

describeOnDatabases('test mode', (kind) => {
  let relay: MessagingTestRelay;
  let tenant: ProvisionedTenant;
  let testKey: string;
  let sendgrid: SendGridMock;
  let catcher: WebhookCatcher;

  beforeEach(async () => {
    sendgrid = new SendGridMock();
    await sendgrid.start();
    catcher = await startWebhookCatcher();
    relay = await startMessagingRelay(kind, { SENDGRID_API_KEY: sendgrid.apiKey, SENDGRID_BASE_URL: sendgrid.baseUrl, MESSAGING_PROVIDERS: 'sendgrid', WEBHOOK_ALLOW_PRIVATE_URLS: '1' });
    tenant = await provisionTenant(relay.app, { provider_order: ['sendgrid'] });
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready' });
    const key = await call(relay.app, 'POST', `/admin/v1/tenants/${tenant.id}/api-keys`, 201, { token: TEST_OPERATOR_TOKEN, payload: { mode: 'test' } });
    expect(key.body).toMatchObject({ mode: 'test', api_key: expect.stringMatching(/^lwm_test_/) });
    testKey = key.body.api_key;
  });
  afterEach(async () => {
    await relay.close();
    await sendgrid.stop();
    await catcher.close();
  });

  async function sendAndDispatch(apiKey: string, overrides: Record<string, unknown>) {
    const { body } = await call(relay.app, 'POST', '/api/messages/send', 200, { token: apiKey, payload: sendBody(overrides) });
    await relay.app.messaging.dispatchLoop.runOnce();
    return (await call(relay.app, 'GET', `/api/messages/${body.message_id}`, 200, { token: apiKey })).body;
  }

  it('the simulator addresses bring delivered, bounced and complained through the webhooks; nothing reaches SendGrid', async () => {
    const url = catcher.url();
    const hook = await call(relay.app, 'POST', `/admin/v1/tenants/${tenant.id}/webhooks`, 201, { token: TEST_OPERATOR_TOKEN, payload: { url } });
    const delivered = await sendAndDispatch(testKey, { to: 'delivered@simulator.ledgerwire.test' });
    const bounced = await sendAndDispatch(testKey, { to: 'bounced@simulator.ledgerwire.test' });
    const complained = await sendAndDispatch(testKey, { to: 'complained@simulator.ledgerwire.test' });
    const ordinary = await sendAndDispatch(testKey, { to: 'ada@example.com' });
    expect(delivered).toMatchObject({ status: 'delivered', provider: 'outbox', test_mode: true });
    expect(bounced).toMatchObject({ status: 'bounced', error: expect.stringContaining('Simulated hard bounce') });
    expect(complained.status).toBe('delivered');
    expect(complained.timeline.map((e: { detail: { event?: string } | null }) => e.detail?.event).filter(Boolean)).toEqual(['delivered', 'spamreport']);
    expect(ordinary).toMatchObject({ status: 'sent', provider: 'outbox' });
    expect(sendgrid.requests).toHaveLength(0);
    for (const message of [delivered, bounced, complained, ordinary]) {
      expect(fs.existsSync(path.join(relay.config.dataDir, 'outbox', `${message.message_id}.eml`))).toBe(true);
    }
    const suppressions = (await call(relay.app, 'GET', '/api/suppressions', 200, { token: tenant.apiKey })).body.suppressions;
    expect(Object.fromEntries(suppressions.map((s: { email: string; reason: string }) => [s.email, s.reason]))).toEqual({
      'bounced@simulator.ledgerwire.test': 'hard_bounce',
      'complained@simulator.ledgerwire.test': 'spam_report',
    });

    await relay.app.webhooks.deliveryLoop.runOnce();
    const verifier = new Webhook(hook.body.webhook.secret);
    const events = catcher.received.map((r) => verifier.verify(r.body, r.headers as Record<string, string>) as { type: string; data: { message_id: string } });
    const typesOf = (id: string) => events.filter((e) => e.data.message_id === id).map((e) => e.type).sort();
    expect(typesOf(delivered.message_id)).toEqual(['message.delivered', 'message.sent']);
    expect(typesOf(bounced.message_id)).toEqual(['message.bounced', 'message.sent']);
    expect(typesOf(complained.message_id)).toEqual(['message.delivered', 'message.sent']);
  });

  it('a live key of the same tenant still reaches its provider; test and live sends never replay each other', async () => {
    const body = sendBody({ to: 'delivered@simulator.ledgerwire.test' });
    const test = await call(relay.app, 'POST', '/api/messages/send', 200, { token: testKey, payload: body });
    const live = await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: body });
    expect(live.body.message_id).not.toBe(test.body.message_id);
    await relay.app.messaging.dispatchLoop.runOnce();
    expect(sendgrid.requests).toHaveLength(1);
    const keys = await call(relay.app, 'GET', `/admin/v1/tenants/${tenant.id}/api-keys`, 200, { token: TEST_OPERATOR_TOKEN });
    expect(keys.body.api_keys.map((k: { mode: string }) => k.mode).sort()).toEqual(['live', 'test']);
  });
});
