// The webhook engine end to end against a real HTTP receiver: signing (and both signatures during a
// rotation), the retry schedule, timeouts, event filters, endpoints with nothing subscribed, deletion,
// and automatic disabling. Time moves only through the injected clock; the loop runs via runOnce().
import { WebhookEventPayload } from '@ledgerwire/shared';
import { WebhookVerificationError } from 'standardwebhooks';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { AppError } from '../../src/errors/catalogue.js';
import type { WebhookOwner } from '../../src/webhooks/index.js';
import { describeOnDatabases, startWebhookCatcher, type WebhookCatcher } from '@ledgerwire/test-kit';
import { startEngine, verifyAt, type TestEngine } from './webhook-test-kit.js';

const tenant: WebhookOwner = { kind: 'tenant', id: 'ten_1' };
const application: WebhookOwner = { kind: 'application', id: 'app_1' };
const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;

describeOnDatabases('webhook delivery', (kind) => {
  let engine: TestEngine;
  let receiver: WebhookCatcher;

  beforeEach(async () => {
    engine = await startEngine(kind, { requestTimeoutMs: 300 });
    receiver = await startWebhookCatcher();
  });
  afterEach(async () => {
    // A pass that threw (a deadlock, a bad query) is caught and logged by the loop: it must not happen.
    expect(engine.loop.health().lastError).toBeNull();
    await receiver.close();
    await engine.close();
  });

  it('delivers a signed Standard Webhooks request with the event body and delivery id', async () => {
    const { endpoint, secret } = await engine.service.createEndpoint(application, { url: receiver.url(), description: 'presence' });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(endpoint).toMatchObject({ url: receiver.url(), enabled: true, disabled_reason: null, description: 'presence' });
    expect(endpoint.events).toEqual([
      'connector.online', 'connector.offline', 'books.started', 'books.stopped', 'company.linked', 'company.unlinked', 'transaction.completed', 'transaction.failed', 'connect_session.completed',
    ]);
    expect(JSON.stringify(endpoint)).not.toContain(secret);

    const published = await engine.service.publish(application, { type: 'connector.online', data: { company_id: 7, machine: 'ACCOUNTS-PC' } });
    expect(published).toEqual({ event_id: expect.stringMatching(/^evt_/), deliveries: 1 });
    await engine.loop.runOnce();

    expect(receiver.received).toHaveLength(1);
    const request = receiver.received[0]!;
    const body = WebhookEventPayload.parse(verifyAt(secret, request, engine.clock));
    expect(body).toEqual({
      event_id: published.event_id,
      type: 'connector.online',
      created_at: engine.clock.date().toISOString(),
      data: { company_id: 7, machine: 'ACCOUNTS-PC' },
    });
    expect(request.headers['webhook-id']).toBe(published.event_id);
    expect(request.headers['webhook-timestamp']).toBe(String(Math.floor(engine.clock.date().getTime() / 1000)));
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toMatch(/^Ledgerwire-Webhooks\//);
    expect(request.headers['webhook-signature']?.split(' ')).toHaveLength(1);

    const { total, deliveries } = await engine.service.listDeliveries(application, endpoint.id, { limit: 10, offset: 0 });
    expect(total).toBe(1);
    expect(deliveries[0]).toMatchObject({
      id: request.headers['x-service-delivery'],
      event_id: published.event_id,
      endpoint_id: endpoint.id,
      event_type: 'connector.online',
      status: 'succeeded',
      attempt_count: 1,
      next_attempt_at: null,
    });
    expect(deliveries[0]?.attempts).toEqual([
      { attempted_at: engine.clock.date().toISOString(), status_code: 204, duration_ms: expect.any(Number), error: null, next_attempt_at: null, response_body: null },
    ]);
  });

  it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
    const { endpoint, secret: oldSecret } = await engine.service.createEndpoint(tenant, { url: receiver.url() });
    const { secret: newSecret, endpoint: rotated } = await engine.service.rotateSecret(tenant, endpoint.id);
    expect(newSecret).not.toBe(oldSecret);
    expect(rotated.id).toBe(endpoint.id);

    await engine.service.publish(tenant, { type: 'message.delivered', data: { message_id: 'msg_1' } });
    await engine.loop.runOnce();
    const during = receiver.received[0]!;
    expect(during.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(verifyAt(oldSecret, during, engine.clock)).toMatchObject({ type: 'message.delivered' });
    expect(verifyAt(newSecret, during, engine.clock)).toMatchObject({ type: 'message.delivered' });

    engine.clock.advance(DAY + SECOND);
    await engine.service.publish(tenant, { type: 'message.opened', data: { message_id: 'msg_1' } });
    await engine.loop.runOnce();
    const after = receiver.received[1]!;
    expect(after.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(verifyAt(newSecret, after, engine.clock)).toMatchObject({ type: 'message.opened' });
    expect(() => verifyAt(oldSecret, after, engine.clock)).toThrow(WebhookVerificationError);
  });

  it('retries a failing receiver on the schedule, records every attempt, then gives up', async () => {
    receiver.respondWith({ status: 500 });
    const { endpoint, secret } = await engine.service.createEndpoint(tenant, { url: receiver.url() });
    await engine.service.publish(tenant, { type: 'message.failed', data: { message_id: 'msg_9' } });
    const expectedDelays = [5 * SECOND, 5 * 60 * SECOND, 30 * 60 * SECOND, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];

    await engine.loop.runOnce();
    for (const delay of expectedDelays) {
      // Not yet due a moment before the delay ends: nothing is sent.
      engine.clock.advance(delay - SECOND);
      const before = receiver.received.length;
      await engine.loop.runOnce();
      expect(receiver.received).toHaveLength(before);
      engine.clock.advance(SECOND);
      await engine.loop.runOnce();
      expect(receiver.received).toHaveLength(before + 1);
    }
    expect(verifyAt(secret, receiver.received[7]!, engine.clock)).toMatchObject({ type: 'message.failed' });
    engine.clock.advance(DAY);
    await engine.loop.runOnce();
    expect(receiver.received).toHaveLength(8);
    // Every retry carries the same event id and delivery id, freshly signed.
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.headers['x-service-delivery'])).size).toBe(1);

    const { deliveries } = await engine.service.listDeliveries(tenant, endpoint.id, { limit: 10, offset: 0 });
    const delivery = deliveries[0]!;
    expect(delivery).toMatchObject({ status: 'failed', attempt_count: 8, next_attempt_at: null });
    expect(delivery.attempts).toHaveLength(8);
    for (const [index, attempt] of delivery.attempts.entries()) {
      expect(attempt.status_code).toBe(500);
      expect(attempt.error).toBe('The receiver answered 500');
      const delay = expectedDelays[index];
      expect(attempt.next_attempt_at).toBe(
        delay === undefined ? null : new Date(Date.parse(attempt.attempted_at) + delay).toISOString(),
      );
    }
  });

  it('succeeds on a later attempt once the receiver recovers', async () => {
    receiver.respondWith({ status: 503 });
    const { endpoint } = await engine.service.createEndpoint(tenant, { url: receiver.url() });
    await engine.service.publish(tenant, { type: 'message.sent', data: {} });
    await engine.loop.runOnce();
    receiver.respondWith({ status: 200 });
    engine.clock.advance(5 * SECOND);
    await engine.loop.runOnce();
    const { deliveries } = await engine.service.listDeliveries(tenant, endpoint.id, { limit: 10, offset: 0 });
    expect(deliveries[0]).toMatchObject({ status: 'succeeded', attempt_count: 2, next_attempt_at: null });
    expect(deliveries[0]?.attempts.map((a) => a.status_code)).toEqual([503, 200]);
  });

  it('fails an attempt when the receiver does not answer in time, and when nothing listens', async () => {
    receiver.respondWith('hang');
    const { endpoint } = await engine.service.createEndpoint(tenant, { url: receiver.url() });
    await engine.service.publish(tenant, { type: 'message.clicked', data: {} });
    await engine.loop.runOnce();
    expect(receiver.received).toHaveLength(1);

    const closed = await startWebhookCatcher();
    const gone = closed.url();
    await closed.close();
    await engine.service.updateEndpoint(tenant, endpoint.id, { url: gone });
    engine.clock.advance(5 * SECOND);
    await engine.loop.runOnce();

    const { deliveries } = await engine.service.listDeliveries(tenant, endpoint.id, { limit: 10, offset: 0 });
    expect(deliveries[0]?.status).toBe('pending');
    expect(deliveries[0]?.attempts).toMatchObject([
      { status_code: null, error: 'No answer within 300 ms' },
      { status_code: null, error: 'Connection refused' },
    ]);
    // The timeout is proven by the error above (the receiver never answered); how long it took is not asserted.
    expect(deliveries[0]?.attempts[0]?.duration_ms).toEqual(expect.any(Number));
  });

  it('queues nothing when no endpoint exists or none is subscribed, and honours event filters', async () => {
    expect(await engine.service.publish(tenant, { type: 'message.sent', data: {} })).toEqual({ event_id: expect.stringMatching(/^evt_/), deliveries: 0 });
    const eventRows = await engine.database.db.selectFrom('webhook_events').select('id').execute();
    expect(eventRows).toEqual([]);

    const onlyDelivered = await engine.service.createEndpoint(tenant, { url: `${receiver.url()}/delivered`, events: ['message.delivered'] });
    const everything = await engine.service.createEndpoint(tenant, { url: `${receiver.url()}/all` });
    await engine.service.createEndpoint(application, { url: `${receiver.url()}/other-owner` });
    await engine.loop.runOnce();
    expect(receiver.received).toHaveLength(0); // the event raised before any endpoint was not kept for later

    expect((await engine.service.publish(tenant, { type: 'message.sent', data: {} })).deliveries).toBe(1);
    expect((await engine.service.publish(tenant, { type: 'message.delivered', data: {} })).deliveries).toBe(2);
    await engine.loop.runOnce();
    expect(receiver.received.map((r) => `${r.path} ${JSON.parse(r.body).type}`).sort()).toEqual([
      '/hooks/all message.delivered',
      '/hooks/all message.sent',
      '/hooks/delivered message.delivered',
    ]);
    expect(onlyDelivered.endpoint.events).toEqual(['message.delivered']);
    expect(everything.endpoint.events).toHaveLength(6);

    await expect(engine.service.createEndpoint(tenant, { url: receiver.url(), events: ['connector.online'] })).rejects.toMatchObject({
      code: 'webhook_events_invalid',
    });
    await expect(engine.service.createEndpoint(tenant, { url: receiver.url(), events: [] })).rejects.toMatchObject({ code: 'webhook_events_invalid' });
    await expect(engine.service.publish(tenant, { type: 'connector.online', data: {} })).rejects.toThrow(/Unknown tenant webhook event type/);
  });

  it('stops delivery when the endpoint is deleted: pending deliveries are cancelled', async () => {
    receiver.respondWith({ status: 500 });
    const { endpoint } = await engine.service.createEndpoint(tenant, { url: receiver.url() });
    await engine.service.publish(tenant, { type: 'message.sent', data: {} });
    await engine.loop.runOnce();
    engine.clock.advance(SECOND);
    const { event_id } = await engine.service.publish(tenant, { type: 'message.bounced', data: {} });
    const [retrying, queued] = (await engine.service.listDeliveries(tenant, endpoint.id, { limit: 10, offset: 0 })).deliveries.reverse();
    expect(queued?.event_id).toBe(event_id);

    await engine.service.deleteEndpoint(tenant, endpoint.id);
    engine.clock.advance(HOUR);
    await engine.loop.runOnce();
    expect(receiver.received).toHaveLength(1);
    for (const delivery of [retrying!, queued!]) {
      expect((await engine.service.getDeliveryForOperator(delivery.id)).delivery.status).toBe('cancelled');
    }
    await expect(engine.service.getEndpoint(tenant, endpoint.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(engine.service.listEndpoints(tenant)).resolves.toEqual([]);
    expect((await engine.service.publish(tenant, { type: 'message.sent', data: {} })).deliveries).toBe(0);
    const stored = await engine.database.db.selectFrom('webhook_endpoints').select(['secret', 'retired_secrets']).executeTakeFirstOrThrow();
    expect(stored).toEqual({ secret: '', retired_secrets: '[]' });
  });

  it('disables an endpoint that has failed continuously for 5 days, and a success resets the count', async () => {
    receiver.respondWith({ status: 500 });
    const { endpoint } = await engine.service.createEndpoint(tenant, { url: receiver.url() });
    const failOnce = async () => {
      await engine.service.publish(tenant, { type: 'message.sent', data: {} });
      await engine.loop.runOnce();
    };
    await failOnce();
    engine.clock.advance(3 * DAY);
    receiver.respondWith({ status: 200 });
    await engine.service.publish(tenant, { type: 'message.sent', data: {} });
    await engine.loop.runOnce(); // a success: the failure streak starts over
    receiver.respondWith({ status: 500 });
    engine.clock.advance(HOUR);
    await failOnce();
    engine.clock.advance(4 * DAY);
    await failOnce();
    expect((await engine.service.getEndpoint(tenant, endpoint.id)).enabled).toBe(true);

    engine.clock.advance(DAY);
    await failOnce();
    const disabled = await engine.service.getEndpoint(tenant, endpoint.id);
    expect(disabled.enabled).toBe(false);
    expect(disabled.disabled_reason).toMatch(/failed for 5 days/);
    const { deliveries } = await engine.service.listDeliveries(tenant, endpoint.id, { limit: 20, offset: 0 });
    expect(deliveries.filter((d) => d.status === 'pending')).toEqual([]);
    // The attempt that crossed the line failed for good; whatever was still queued was cancelled.
    expect(deliveries.filter((d) => d.status === 'failed').map((d) => d.next_attempt_at)).toEqual([null]);
    expect(deliveries.filter((d) => d.status === 'cancelled').length).toBeGreaterThan(0);

    const sent = receiver.received.length;
    expect((await engine.service.publish(tenant, { type: 'message.sent', data: {} })).deliveries).toBe(0);
    await expect(engine.service.sendTest(tenant, endpoint.id)).rejects.toMatchObject({ code: 'webhook_endpoint_disabled' });
    engine.clock.advance(DAY);
    await engine.loop.runOnce();
    expect(receiver.received).toHaveLength(sent);

    const enabled = await engine.service.updateEndpoint(tenant, endpoint.id, { enabled: true });
    expect(enabled).toMatchObject({ enabled: true, disabled_reason: null });
  });

  it('disables an endpoint that answers 410 Gone', async () => {
    receiver.respondWith({ status: 410 });
    const { endpoint } = await engine.service.createEndpoint(application, { url: receiver.url() });
    await engine.service.publish(application, { type: 'books.stopped', data: {} });
    await engine.loop.runOnce();
    expect(await engine.service.getEndpoint(application, endpoint.id)).toMatchObject({ enabled: false, disabled_reason: 'The receiver answered 410 Gone' });
  });

  it('sends test events, redelivers, pages the history, and keeps owners apart', async () => {
    const { endpoint, secret } = await engine.service.createEndpoint(application, { url: receiver.url(), events: ['company.linked'] });
    const test = await engine.service.sendTest(application, endpoint.id);
    expect(test).toMatchObject({ event_type: 'webhook.test', status: 'pending', attempt_count: 0, attempts: [] });
    await engine.loop.runOnce();
    expect(verifyAt(secret, receiver.received[0]!, engine.clock)).toMatchObject({ type: 'webhook.test', data: { endpoint_id: endpoint.id } });

    const again = await engine.service.redeliver(application, test.id);
    expect(again.id).not.toBe(test.id);
    expect(again).toMatchObject({ event_id: test.event_id, status: 'pending' });
    await engine.loop.runOnce();
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([test.event_id, test.event_id]);
    expect(receiver.received.map((r) => r.headers['x-service-delivery'])).toEqual([test.id, again.id]);

    for (let i = 0; i < 3; i += 1) {
      engine.clock.advance(SECOND);
      await engine.service.publish(application, { type: 'company.linked', data: { company_id: i } });
    }
    const page = await engine.service.listDeliveries(application, endpoint.id, { limit: 2, offset: 1 });
    expect(page.total).toBe(5);
    expect(page.deliveries).toHaveLength(2);

    const stranger: WebhookOwner = { kind: 'application', id: 'app_2' };
    const attempts: (() => Promise<unknown>)[] = [
      () => engine.service.getEndpoint(stranger, endpoint.id),
      () => engine.service.rotateSecret(stranger, endpoint.id),
      () => engine.service.deleteEndpoint(stranger, endpoint.id),
      () => engine.service.listDeliveries(stranger, endpoint.id, { limit: 10, offset: 0 }),
      () => engine.service.redeliver(stranger, test.id),
      () => engine.service.getDelivery(stranger, test.id),
      () => engine.service.getEndpoint({ kind: 'tenant', id: 'app_1' }, endpoint.id),
    ];
    for (const attempt of attempts) {
      await expect(attempt()).rejects.toSatisfy((e) => e instanceof AppError && e.code === 'not_found');
    }
    expect(await engine.service.getDelivery(application, test.id)).toMatchObject({ status: 'succeeded', attempt_count: 1 });
  });

  it('manually disabling an endpoint cancels what is queued; updates are validated', async () => {
    const { endpoint } = await engine.service.createEndpoint(tenant, { url: receiver.url() });
    await engine.service.publish(tenant, { type: 'message.sent', data: {} });
    const disabled = await engine.service.updateEndpoint(tenant, endpoint.id, { enabled: false, description: 'paused' });
    expect(disabled).toMatchObject({ enabled: false, disabled_reason: 'Disabled on request', description: 'paused' });
    await engine.loop.runOnce();
    expect(receiver.received).toHaveLength(0);
    const { deliveries } = await engine.service.listDeliveries(tenant, endpoint.id, { limit: 10, offset: 0 });
    expect(deliveries.map((d) => d.status)).toEqual(['cancelled']);
    await expect(engine.service.redeliver(tenant, deliveries[0]!.id)).rejects.toMatchObject({ code: 'webhook_endpoint_disabled' });
    await expect(engine.service.updateEndpoint(tenant, endpoint.id, { url: 'ftp://example.com/' })).rejects.toMatchObject({ code: 'webhook_url_invalid' });
    expect((await engine.service.getEndpoint(tenant, endpoint.id)).url).toBe(receiver.url());
  });
});
