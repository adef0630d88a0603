// The webhook engine inside the relay app: the operator's delivery routes (console support), and the
// delivery loop that starts with the app when workers are on and is woken by a publish.
import { WebhookDeliveryDetailOut } from '@ledgerwire/shared';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, describeOnDatabases, startRelay, startWebhookCatcher, TEST_OPERATOR_TOKEN, type TestRelay, type WebhookCatcher } from '@ledgerwire/test-kit';

const owner = { kind: 'application', id: 'app_ops' } as const;

describeOnDatabases('webhook operator routes', (kind) => {
  let relay: TestRelay;
  let receiver: WebhookCatcher;

  beforeEach(async () => {
    relay = await startRelay({ database: kind, env: { WEBHOOK_ALLOW_PRIVATE_URLS: '1', RELAY_WORKERS: '0' } });
    receiver = await startWebhookCatcher();
  });
  afterEach(async () => {
    await receiver.close();
    await relay.close();
  });

  it('shows a delivery with its attempts and body, and redelivers it', async () => {
    const { service: webhooks, deliveryLoop: webhookDeliveryLoop } = relay.app.webhooks;
    expect(webhookDeliveryLoop.health().running).toBe(false);
    receiver.respondWith({ status: 500 });
    const { endpoint } = await webhooks.createEndpoint(owner, { url: receiver.url() });
    const { event_id } = await webhooks.publish(owner, { type: 'company.linked', data: { company_id: 3 } });
    await webhookDeliveryLoop.runOnce();
    const [delivery] = (await webhooks.listDeliveries(owner, endpoint.id, { limit: 1, offset: 0 })).deliveries;

    const { body } = await call(relay.app, 'GET', `/admin/v1/webhook-deliveries/${delivery!.id}`, 200, { token: TEST_OPERATOR_TOKEN });
    const detail = WebhookDeliveryDetailOut.parse(body);
    expect(detail.delivery).toMatchObject({
      id: delivery!.id,
      event_id,
      status: 'pending',
      attempt_count: 1,
      owner,
      endpoint_url: receiver.url(),
      attempts: [{ status_code: 500, error: 'The receiver answered 500' }],
    });
    expect(JSON.parse(detail.delivery.payload)).toMatchObject({ event_id, type: 'company.linked', data: { company_id: 3 } });
    expect(JSON.stringify(body)).not.toContain('whsec_');

    // Still being retried: redelivery makes it due now rather than queueing a duplicate.
    receiver.respondWith({ status: 200 });
    const { body: again } = await call(relay.app, 'POST', `/admin/v1/webhook-deliveries/${delivery!.id}/redeliver`, 200, { token: TEST_OPERATOR_TOKEN });
    expect(again.delivery).toMatchObject({ id: delivery!.id, status: 'pending' });
    await webhookDeliveryLoop.runOnce();
    const { body: done } = await call(relay.app, 'GET', `/admin/v1/webhook-deliveries/${delivery!.id}`, 200, { token: TEST_OPERATOR_TOKEN });
    expect(done.delivery).toMatchObject({ status: 'succeeded', attempt_count: 2 });

    // Finished: a new delivery of the same event.
    const { body: fresh } = await call(relay.app, 'POST', `/admin/v1/webhook-deliveries/${delivery!.id}/redeliver`, 200, { token: TEST_OPERATOR_TOKEN });
    expect(fresh.delivery.id).not.toBe(delivery!.id);
    expect(fresh.delivery).toMatchObject({ event_id, status: 'pending', attempt_count: 0 });
    await webhookDeliveryLoop.runOnce();
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([event_id, event_id, event_id]);
  });

  it('answers 401 without the operator token, 404 for an unknown delivery, 409 for a disabled endpoint', async () => {
    const { body: missing } = await call(relay.app, 'GET', '/admin/v1/webhook-deliveries/dlv_nope', 401);
    expect(missing.error.code).toBe('operator_token_missing');
    await call(relay.app, 'POST', '/admin/v1/webhook-deliveries/dlv_nope/redeliver', 401, { token: 'wrong-token' });
    const { body: unknown } = await call(relay.app, 'GET', '/admin/v1/webhook-deliveries/dlv_nope', 404, { token: TEST_OPERATOR_TOKEN });
    expect(unknown).toEqual({ success: false, error: { code: 'not_found', message: 'No webhook delivery dlv_nope', details: [] } });

    const webhooks = relay.app.webhooks.service;
    const { endpoint } = await webhooks.createEndpoint(owner, { url: receiver.url() });
    const test = await webhooks.sendTest(owner, endpoint.id);
    await webhooks.updateEndpoint(owner, endpoint.id, { enabled: false });
    const { body: disabled } = await call(relay.app, 'POST', `/admin/v1/webhook-deliveries/${test.id}/redeliver`, 409, { token: TEST_OPERATOR_TOKEN });
    expect(disabled.error.code).toBe('webhook_endpoint_disabled');
  });
});

describeOnDatabases('webhook delivery loop in the app', (kind) => {
  it('starts on ready when workers are on, delivers on publish without waiting for a poll, stops on close', async () => {
    const relay = await startRelay({ database: kind, env: { WEBHOOK_ALLOW_PRIVATE_URLS: '1' } });
    const receiver = await startWebhookCatcher();
    try {
      await relay.app.ready();
      const { service: webhooks, deliveryLoop: webhookDeliveryLoop } = relay.app.webhooks;
      expect(webhookDeliveryLoop.health().running).toBe(true);
      await webhooks.createEndpoint({ kind: 'tenant', id: 'ten_live' }, { url: receiver.url() });
      await webhooks.publish({ kind: 'tenant', id: 'ten_live' }, { type: 'message.sent', data: { message_id: 'm1' } });
      await receiver.deliveries(1);
      expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ type: 'message.sent', data: { message_id: 'm1' } });
    } finally {
      await receiver.close();
      await relay.close();
    }
    expect(relay.app.webhooks.deliveryLoop.health().running).toBe(false);
  });
});
