// Presence webhooks end to end: a receiver on 127.0.0.1 gets connector.online, books.started,
// books.stopped and connector.offline, signed (Standard Webhooks), in the order they happened. A flap —
// the connection dropped and back within the grace period — publishes nothing; offline comes only
// after the grace period.
import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, describeOnDatabases, startRelay, startWebhookCatcher, type TestRelay, type WebhookCatcher } from '@ledgerwire/test-kit';
import { BOOKS_RUNNING, BOOKS_STOPPED, TestConnector } from '../../helpers/test-connector.js';
import { createTenant, pairFromConnector, type Tenant } from './gateway-fixtures.js';

const GRACE_MS = 1500;

describeOnDatabases('connector presence webhooks', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  let receiver: WebhookCatcher;
  let baseUrl: string;
  let secret: string;
  const open: TestConnector[] = [];

  beforeEach(async () => {
    receiver = await startWebhookCatcher();
    relay = await startRelay({ database: kind, env: { WEBHOOK_ALLOW_PRIVATE_URLS: '1', CONNECTOR_OFFLINE_GRACE_MS: String(GRACE_MS) } });
    baseUrl = await relay.app.listen({ port: 0, host: '127.0.0.1' });
    tenant = await createTenant(relay.app);
    const { body } = await call(relay.app, 'POST', '/api/v1/webhooks', 200, { token: tenant.apiKey, payload: { url: receiver.url() } });
    secret = body.webhook.secret;
  });
  afterEach(async () => {
    for (const connector of open.splice(0)) if (connector.isOpen) await connector.close();
    await relay.close();
    await receiver.close();
  });

  const connect = async (credential: string) => {
    const connector = await TestConnector.connect(baseUrl, credential);
    open.push(connector);
    return connector;
  };

  it('publishes online, books started/stopped and, after the grace period, offline — in order, a flap debounced', async () => {
    const enrolled = await TestConnector.enroll(relay.app, { token: tenant.customerToken, machineName: 'FRONT-DESK', version: '0.4.0' });
    await pairFromConnector(relay.app, enrolled.credential, tenant.companyId);

    const first = await connect(enrolled.credential);
    await first.hello(BOOKS_RUNNING, '0.4.0');
    await receiver.deliveries(2);
    first.presence(BOOKS_STOPPED);
    await receiver.deliveries(3);

    // The flap: the connection drops and comes back well within the grace period.
    await first.drop();
    const second = await connect(enrolled.credential);
    await second.hello(BOOKS_STOPPED, '0.4.0');
    second.presence(BOOKS_RUNNING);
    await receiver.deliveries(4);

    await second.drop();
    // Order, not a stopwatch: the close publishes nothing; connector.offline comes only after the grace period.
    expect(receiver.received.map((w) => w.type)).not.toContain('connector.offline');
    const all = await receiver.deliveries(5);
    expect(all.map((w) => w.type)).toEqual(['connector.online', 'books.started', 'books.stopped', 'books.started', 'connector.offline']);

    const [online, started] = all;
    expect(online?.data).toMatchObject({
      connector_id: enrolled.connector_id,
      customer_id: tenant.customerId,
      machine_name: 'FRONT-DESK',
      connector_version: '0.4.0',
      company_ids: [tenant.companyId],
    });
    expect(started?.data.open_companies).toEqual(BOOKS_RUNNING.open_companies);
    const verifier = new Webhook(secret);
    for (const webhook of all) expect(() => verifier.verify(webhook.body, webhook.headers)).not.toThrow();
    const occurred = all.map((w) => String(w.data.occurred_at));
    expect([...occurred].sort()).toEqual(occurred);

    const { body } = await call(relay.app, 'GET', `/api/v1/companies/${tenant.companyId}/health`, 200, { token: tenant.apiKey });
    expect(body.connector).toMatchObject({ online: false, machine: 'FRONT-DESK' });
  });
});
