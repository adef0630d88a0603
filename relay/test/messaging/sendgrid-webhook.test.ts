// SendGrid's Signed Event Webhook: the verifier against SendGrid's own published test vector, and
// POST /api/webhooks/sendgrid end to end — signed batches move statuses forward only (out-of-order
// events are kept on the timeline but never move a status back; bounced/failed are terminal),
// duplicates by sg_event_id are ignored, unsigned / wrong / stale requests get 403 and change
// nothing, unknown providers 404. Status changes reach the tenant's webhook through the engine.
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSendGridPublicKey, verifySendGridSignature } from '../../src/messaging/services/provider-webhooks/sendgrid-signature.js';
import { call, describeOnDatabases, startWebhookCatcher, TEST_OPERATOR_TOKEN, type WebhookCatcher } from '@ledgerwire/test-kit';
import { SendGridMock } from './support/sendgrid-mock.js';
import { SendGridSigner } from './support/sendgrid-signer.js';
import { createTemplate, provisionTenant, sendBody, startMessagingRelay, type MessagingTestRelay, type ProvisionedTenant } from './support/messaging-test-relay.js';

// SendGrid's published test vector (sendgrid-nodejs, packages/eventwebhook/src/eventwebhook.spec.js).
const VECTOR = {
  publicKey: 'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEEDr2LjtURuePQzplybdC+u4CwrqDqBaWjcMMsTbhdbcwHBcepxo7yAQGhHPTnlvFYPAZFceEu/1FwCM/QmGUhA==',
  signature: 'MEUCIQCtIHJeH93Y+qpYeWrySphQgpNGNr/U+UyUlBkU6n7RAwIgJTz2C+8a8xonZGi6BpSzoQsbVRamr2nlxFDWYNH2j/0=',
  timestamp: '1588788367',
  payload: '{"category":"example_payload","event":"test_event","message_id":"message_id"}',
  otherKey: 'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEqTxd43gyp8IOEto2LdIfjRQrIbsd4SXZkLW6jDutdhXSJCWHw8REntlo7aNDthvj+y7GjUuFDb/R1NGe1OPzpA==',
  badSignature: 'MEUCIQCtIHJeH93Y+qpYeWrySphQgpNGNr/U+UyUlBkU6n7RAwIgJTz2C+8a8xonZGi6BpSzoQsbVRamr2nlxFDWYNH3j/0=',
};

describe('SendGrid signature verifier against SendGrid’s published test vector', () => {
  const key = parseSendGridPublicKey(VECTOR.publicKey);
  it('accepts the vector', () => {
    expect(verifySendGridSignature(key, Buffer.from(VECTOR.payload), VECTOR.signature, VECTOR.timestamp)).toBe(true);
  });
  it('rejects another key, another payload, a flipped signature and another timestamp', () => {
    expect(verifySendGridSignature(parseSendGridPublicKey(VECTOR.otherKey), Buffer.from(VECTOR.payload), VECTOR.signature, VECTOR.timestamp)).toBe(false);
    expect(verifySendGridSignature(key, Buffer.from('payload'), VECTOR.signature, VECTOR.timestamp)).toBe(false);
    expect(verifySendGridSignature(key, Buffer.from(VECTOR.payload), VECTOR.badSignature, VECTOR.timestamp)).toBe(false);
    expect(verifySendGridSignature(key, Buffer.from(VECTOR.payload), VECTOR.signature, 'timestamp')).toBe(false);
    expect(verifySendGridSignature(key, Buffer.from(VECTOR.payload), 'not base64 at all', VECTOR.timestamp)).toBe(false);
  });
});

describeOnDatabases('SendGrid vector through the route', (kind) => {
  it('passes signature checks on the raw bytes (then 400: the vector body is not an event array); one changed byte is 403', async () => {
    const relay = await startMessagingRelay(kind, { SENDGRID_WEBHOOK_PUBLIC_KEY: VECTOR.publicKey }, { now: () => Number(VECTOR.timestamp) * 1000 + 5_000 });
    try {
      const headers = { 'content-type': 'application/json', 'x-twilio-email-event-webhook-signature': VECTOR.signature, 'x-twilio-email-event-webhook-timestamp': VECTOR.timestamp };
      const ok = await call(relay.app, 'POST', '/api/webhooks/sendgrid', 400, { headers, payload: VECTOR.payload });
      expect(ok.body).toEqual({ error: 'The Event Webhook body must be a JSON array of events' });
      const tampered = await call(relay.app, 'POST', '/api/webhooks/sendgrid', 403, { headers, payload: VECTOR.payload.replace('example', 'exampl3') });
      expect(tampered.body).toEqual({ error: 'Invalid signature' });
    } finally {
      await relay.close();
    }
  });
});

describeOnDatabases('SendGrid event webhook', (kind) => {
  let relay: MessagingTestRelay;
  let tenant: ProvisionedTenant;
  let sendgrid: SendGridMock;
  let catcher: WebhookCatcher;
  const signer = new SendGridSigner();
  const now = () => Date.now();
  const ts = () => String(Math.floor(Date.now() / 1000));

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
    }, { now });
    tenant = await provisionTenant(relay.app);
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready' });
  });
  afterEach(async () => {
    await relay.close();
    await sendgrid.stop();
    await catcher.close();
  });

  async function sentMessage(): Promise<{ id: string; xMessageId: string }> {
    const { body } = await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: sendBody() });
    await relay.app.messaging.dispatchLoop.runOnce();
    const message = await call(relay.app, 'GET', `/api/messages/${body.message_id}`, 200, { token: tenant.apiKey });
    expect(message.body.status).toBe('sent');
    return { id: body.message_id, xMessageId: message.body.provider_message_id };
  }

  function event(messageId: string, type: string, sgEventId: string, extra: Record<string, unknown> = {}) {
    return { email: 'ada@example.com', timestamp: Math.floor(Date.now() / 1000), event: type, sg_event_id: sgEventId, sg_message_id: `x.filter0001`, message_id: messageId, ...extra };
  }

  async function post(batch: unknown[], expected = 200, headers?: Record<string, string>) {
    const body = JSON.stringify(batch);
    return call(relay.app, 'POST', '/api/webhooks/sendgrid', expected, { headers: headers ?? signer.headers(body, ts()), payload: body });
  }

  const status = async (id: string) => (await call(relay.app, 'GET', `/api/messages/${id}`, 200, { token: tenant.apiKey })).body;

  it('moves statuses forward through a signed batch, never backwards, deduplicated by sg_event_id', async () => {
    const message = await sentMessage();
    const first = await post([event(message.id, 'processed', 'e1'), event(message.id, 'delivered', 'e2'), event(message.id, 'open', 'e3')]);
    expect(first.body).toEqual({ status: 'ok', received: 3, applied: 3, duplicates: 0, unmatched: 0 });
    expect((await status(message.id)).status).toBe('opened');

    // Out of order: a late "delivered" after "open" stays on the timeline and leaves the status alone.
    const late = await post([event(message.id, 'delivered', 'e4'), event(message.id, 'deferred', 'e5', { response: '400 try later', attempt: '1' })]);
    expect(late.body.applied).toBe(2);
    const afterLate = await status(message.id);
    expect(afterLate.status).toBe('opened');
    // Ignored: "processed" (already sent by the dispatcher) and the late "delivered".
    expect(afterLate.timeline.filter((e: { type: string }) => e.type === 'status_ignored').map((e: { detail: { event: string } }) => e.detail.event)).toEqual(['processed', 'delivered']);

    const again = await post([event(message.id, 'open', 'e3'), event(message.id, 'click', 'e6', { url: 'https://example.com' })]);
    expect(again.body).toEqual({ status: 'ok', received: 2, applied: 1, duplicates: 1, unmatched: 0 });
    const clicked = await status(message.id);
    expect(clicked.status).toBe('clicked');
    expect(clicked.timestamps.delivered_at).toEqual(expect.any(String));
    expect(clicked.timeline.filter((e: { type: string }) => e.type === 'provider_event' || e.type === 'status_ignored')).toHaveLength(6);
  });

  it('bounced is terminal; matching by sg_message_id works without our custom arg', async () => {
    const message = await sentMessage();
    const bounce = { ...event(message.id, 'bounce', 'b1', { type: 'bounce', status: '5.1.1', reason: '550 5.1.1 User unknown' }), message_id: undefined, sg_message_id: `${message.xMessageId}.filterdrecv-1` };
    await post([bounce]);
    const bounced = await status(message.id);
    expect(bounced).toMatchObject({ status: 'bounced', error: 'SendGrid bounce (bounce): 5.1.1: 550 5.1.1 User unknown' });
    await post([event(message.id, 'open', 'b2'), event(message.id, 'dropped', 'b3', { reason: 'Bounced Address' })]);
    expect((await status(message.id)).status).toBe('bounced');
  });

  it('dropped → failed with the reason; unknown messages are counted as unmatched', async () => {
    const message = await sentMessage();
    const { body } = await post([event(message.id, 'dropped', 'd1', { reason: 'Unsubscribed Address' }), event('msg_000000000000000000000000', 'delivered', 'd2')]);
    expect(body).toEqual({ status: 'ok', received: 2, applied: 1, duplicates: 0, unmatched: 1 });
    expect(await status(message.id)).toMatchObject({ status: 'failed', error: 'SendGrid dropped: Unsubscribed Address' });
  });

  it('unsigned, wrongly signed, stale and future requests get 403 {"error":"Invalid signature"} and change nothing', async () => {
    const message = await sentMessage();
    const batch = [event(message.id, 'delivered', 'u1')];
    const body = JSON.stringify(batch);
    const other = new SendGridSigner();
    const cases: Record<string, string>[] = [
      { 'content-type': 'application/json' },
      other.headers(body, ts()),
      signer.headers(body, String(Math.floor(Date.now() / 1000) - 3600)),
      signer.headers(body, String(Math.floor(Date.now() / 1000) + 3600)),
      { ...signer.headers(body, ts()), 'x-twilio-email-event-webhook-timestamp': String(Number(ts()) + 1) },
    ];
    for (const headers of cases) {
      const response = await call(relay.app, 'POST', '/api/webhooks/sendgrid', 403, { headers, payload: body });
      expect(response.body).toEqual({ error: 'Invalid signature' });
    }
    const signedOtherBody = signer.headers(JSON.stringify([event(message.id, 'open', 'u2')]), ts());
    await call(relay.app, 'POST', '/api/webhooks/sendgrid', 403, { headers: signedOtherBody, payload: body });
    const unchanged = await status(message.id);
    expect(unchanged.status).toBe('sent');
    expect(unchanged.timeline.map((e: { type: string }) => e.type)).toEqual(['queued', 'sent']);
  });

  it('an unknown provider is 404', async () => {
    for (const provider of ['mailgun', 'outbox', 'smtp']) {
      const { body } = await call(relay.app, 'POST', `/api/webhooks/${provider}`, 404, { payload: '[]', headers: { 'content-type': 'application/json' } });
      expect(body).toEqual({ error: 'Unknown provider' });
    }
  });

  it('publishes message.* status webhooks to the tenant, signed per Standard Webhooks', async () => {
    const url = catcher.url();
    const created = await call(relay.app, 'POST', `/admin/v1/tenants/${tenant.id}/webhooks`, 201, { token: TEST_OPERATOR_TOKEN, payload: { url } });
    expect(created.body.webhook.events).toEqual(['message.sent', 'message.delivered', 'message.opened', 'message.clicked', 'message.bounced', 'message.failed']);
    const message = await sentMessage();
    await post([event(message.id, 'delivered', 'w1'), event(message.id, 'delivered', 'w1')]);
    await relay.app.webhooks.deliveryLoop.runOnce();
    const verifier = new Webhook(created.body.webhook.secret);
    const events = catcher.received.map((r) => verifier.verify(r.body, r.headers as Record<string, string>) as { type: string; data: { message_id: string; status: string } });
    expect(events.map((e) => e.type).sort()).toEqual(['message.delivered', 'message.sent']);
    expect(events.every((e) => e.data.message_id === message.id)).toBe(true);
    const deliveries = await call(relay.app, 'GET', `/admin/v1/tenants/${tenant.id}/webhooks/${created.body.webhook.id}/deliveries`, 200, { token: TEST_OPERATOR_TOKEN });
    expect(deliveries.body.total).toBe(2);
  });
});
