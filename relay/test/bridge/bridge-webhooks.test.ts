// /api/v1/webhooks against a local receiver: create (secret once), list, get, patch, test event,
// delivery history, rotate-secret (two signatures), delete — and company.linked / company.unlinked
// on attach / detach. Every request is verified with the standardwebhooks library.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeOnDatabases, type TestRelay } from '@ledgerwire/test-kit';
import { api, provisionTenant, startBridgeRelay, type Tenant } from './bridge-test-kit.js';

type Received = { headers: http.IncomingHttpHeaders; body: string };

describeOnDatabases('bridge webhooks API', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  let receiver: http.Server;
  let received: Received[] = [];
  let answerStatus = 200;
  let hookUrl = '';

  const deliverAll = () => relay.app.webhooks.deliveryLoop.runOnce();
  const verify = (secret: string, request: Received) =>
    new Webhook(secret).verify(request.body, {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    }) as { event_id: string; type: string; created_at: string; data: Record<string, unknown> };

  beforeAll(async () => {
    receiver = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        received.push({ headers: request.headers, body });
        response.statusCode = answerStatus;
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/ledgerwire`;
    relay = await startBridgeRelay(kind);
    tenant = await provisionTenant(relay);
  });
  afterAll(async () => {
    await relay.close();
    await new Promise((resolve) => receiver.close(resolve));
  });
  beforeEach(() => {
    received = [];
    answerStatus = 200;
  });

  it('creates, lists, gets, patches, tests, rotates and deletes an endpoint', async () => {
    const { body: created } = await api(relay, tenant.credential, 'POST', '/api/v1/webhooks', 200, { payload: { url: hookUrl, description: 'ERP presence' } });
    const events = [
      'connector.online', 'connector.offline', 'books.started', 'books.stopped', 'company.linked', 'company.unlinked',
      'transaction.completed', 'transaction.failed', 'connect_session.completed',
    ];
    expect(created).toEqual({
      success: true,
      webhook: expect.objectContaining({ id: expect.stringMatching(/^wh_/), url: hookUrl, events, enabled: true, description: 'ERP presence', secret: expect.stringMatching(/^whsec_/), created_at: expect.any(String) }),
    });
    const id = created.webhook.id;
    const secret = created.webhook.secret;

    const { body: list } = await api(relay, tenant.credential, 'GET', '/api/v1/webhooks', 200);
    expect(list.webhooks.map((w: any) => w.id)).toEqual([id]);
    expect(JSON.stringify(list)).not.toContain(secret);
    const { body: one } = await api(relay, tenant.credential, 'GET', `/api/v1/webhooks/${id}`, 200);
    expect(one.webhook).toMatchObject({ id, url: hookUrl, events });
    expect(one.webhook.secret).toBeUndefined();

    const { body: patched } = await api(relay, tenant.credential, 'PATCH', `/api/v1/webhooks/${id}`, 200, { payload: { events: ['company.linked', 'company.unlinked'] } });
    expect(patched.webhook.events).toEqual(['company.linked', 'company.unlinked']);
    await api(relay, tenant.credential, 'PATCH', `/api/v1/webhooks/${id}`, 422, { payload: { events: ['message.sent'] } });

    // Test event: signed per Standard Webhooks, with X-Service-Delivery, recorded in the history.
    const { body: test } = await api(relay, tenant.credential, 'POST', `/api/v1/webhooks/${id}/test`, 200);
    expect(test.delivery).toMatchObject({ endpoint_id: id, event_type: 'webhook.test', status: 'pending' });
    await deliverAll();
    expect(received).toHaveLength(1);
    const testRequest = received[0] as Received;
    const payload = verify(secret, testRequest);
    expect(payload).toMatchObject({ event_id: test.delivery.event_id, type: 'webhook.test', created_at: expect.any(String), data: expect.any(Object) });
    expect(testRequest.headers['x-service-delivery']).toBe(test.delivery.id);
    const { body: history } = await api(relay, tenant.credential, 'GET', `/api/v1/webhooks/${id}/deliveries`, 200);
    expect(history.deliveries[0]).toMatchObject({ id: test.delivery.id, status: 'succeeded', attempt_count: 1, attempts: [{ status_code: 200, error: null }] });

    // Rotation: the new secret is shown once; for 24 h each request carries both signatures.
    const { body: rotated } = await api(relay, tenant.credential, 'POST', `/api/v1/webhooks/${id}/rotate-secret`, 200);
    expect(rotated.webhook.secret).toMatch(/^whsec_/);
    expect(rotated.webhook.secret).not.toBe(secret);
    received = [];
    await api(relay, tenant.credential, 'POST', `/api/v1/webhooks/${id}/test`, 200);
    await deliverAll();
    const afterRotation = received[0] as Received;
    expect(String(afterRotation.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(secret, afterRotation).type).toBe('webhook.test');
    expect(verify(rotated.webhook.secret, afterRotation).type).toBe('webhook.test');

    // A receiver answering 500 is a failed attempt with a next attempt scheduled.
    received = [];
    answerStatus = 500;
    const { body: failing } = await api(relay, tenant.credential, 'POST', `/api/v1/webhooks/${id}/test`, 200);
    await deliverAll();
    expect(received).toHaveLength(1);
    const { body: told } = await api(relay, tenant.credential, 'GET', `/api/v1/webhooks/${id}/deliveries?limit=10`, 200);
    expect(told.deliveries.find((d: any) => d.id === failing.delivery.id)).toMatchObject({
      status: 'pending',
      attempt_count: 1,
      next_attempt_at: expect.any(String),
      attempts: [{ status_code: 500, next_attempt_at: expect.any(String) }],
    });

    // Another application sees none of it.
    const other = await provisionTenant(relay, { name: 'Other App' });
    await api(relay, other.credential, 'GET', `/api/v1/webhooks/${id}`, 404);
    expect((await api(relay, other.credential, 'GET', '/api/v1/webhooks', 200)).body.webhooks).toEqual([]);

    const { body: deleted } = await api(relay, tenant.credential, 'DELETE', `/api/v1/webhooks/${id}`, 200);
    expect(deleted).toEqual({ success: true, deleted: true, id });
    await api(relay, tenant.credential, 'GET', `/api/v1/webhooks/${id}`, 404);
    expect((await api(relay, tenant.credential, 'GET', '/api/v1/webhooks', 200)).body.webhooks).toEqual([]);
  });

  it('raises company.linked on attach and company.unlinked on detach', async () => {
    const { body: created } = await api(relay, tenant.credential, 'POST', '/api/v1/webhooks', 200, { payload: { url: hookUrl, events: ['company.linked', 'company.unlinked'] } });
    const { body: company } = await api(relay, tenant.credential, 'POST', '/api/v1/companies', 200, { payload: { name: 'Presence Books' } });
    await api(relay, tenant.credential, 'POST', `/api/v1/companies/${company.company_id}/customer`, 200, { payload: { customer_id: tenant.customerId } });
    await api(relay, tenant.credential, 'DELETE', `/api/v1/companies/${company.company_id}/customer`, 200);
    await api(relay, tenant.credential, 'DELETE', `/api/v1/companies/${company.company_id}/customer`, 200); // nothing to unlink: no event
    await deliverAll();
    const events = received.map((request) => verify(created.webhook.secret, request));
    expect(events.map((e) => e.type)).toEqual(['company.linked', 'company.unlinked']);
    expect(events[0]?.data).toEqual({ company_id: company.company_id, customer_id: tenant.customerId, company_name: 'Presence Books', occurred_at: expect.any(String) });
    expect(events[1]?.data).toMatchObject({ company_id: company.company_id, customer_id: tenant.customerId });
    expect(new Set(events.map((e) => e.event_id)).size).toBe(2);
    await api(relay, tenant.credential, 'DELETE', `/api/v1/webhooks/${created.webhook.id}`, 200);
  });

  it('refuses a URL that is not http(s) and unknown event types', async () => {
    await api(relay, tenant.credential, 'POST', '/api/v1/webhooks', 422, { payload: { url: 'ftp://example.com/hook' } });
    await api(relay, tenant.credential, 'POST', '/api/v1/webhooks', 422, { payload: { url: hookUrl, events: ['transaction.created'] } });
    await api(relay, tenant.credential, 'POST', '/api/v1/webhooks', 422, { payload: { url: hookUrl, events: ['message.sent'] } });
    await api(relay, tenant.credential, 'POST', '/api/v1/webhooks', 400, { payload: {} });
  });
});
