// Webhook URLs: https only, and never a private, loopback, link-local or otherwise non-public address,
// whether written literally or reached through DNS, when saved and again when sent, unless the
// WEBHOOK_ALLOW_PRIVATE_URLS override is on.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isNonPublicAddress, type HostResolver } from '../../src/webhooks/services/webhook-url-policy.js';
import { describeOnDatabases, startWebhookCatcher } from '@ledgerwire/test-kit';
import { startEngine, type TestEngine } from './webhook-test-kit.js';

const owner = { kind: 'application', id: 'app_url' } as const;

/** A fake DNS: names the test controls, so "resolves to 127.0.0.1" needs no real zone. */
function fakeDns(records: Record<string, string[]>): HostResolver {
  return async (hostname) => {
    const addresses = records[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

describe('isNonPublicAddress', () => {
  it.each([
    '127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
    '224.0.0.1', '255.255.255.255', '198.18.0.1', '192.0.2.10', '::1', '::', 'fe80::1', 'fd00::1', 'fc00::5', 'ff02::1',
    '::ffff:7f00:1', '::ffff:10.0.0.1', '2001:db8::1', 'not-an-address',
  ])('%s is not public', (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])('%s is public', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
  });
});

describeOnDatabases('webhook URL validation', (kind) => {
  const records: Record<string, string[]> = {};
  const resetRecords = () => {
    for (const key of Object.keys(records)) delete records[key];
    Object.assign(records, {
      'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
      'internal.example.test': ['127.0.0.1'],
      'mixed.example.test': ['93.184.216.34', '10.0.0.7'],
      'metadata.example.test': ['169.254.169.254'],
      'v6-loopback.example.test': ['::1'],
    });
  };
  const policyEngine = () => startEngine(kind, { allowPrivateUrls: false, resolveHost: fakeDns(records), requestTimeoutMs: 500 });

  // A refusal writes nothing, so the refusals share one engine: each still finds no endpoint at all,
  // those refused before it included.
  describe('refusals', () => {
    let engine: TestEngine;
    beforeAll(async () => {
      resetRecords();
      engine = await policyEngine();
    });
    afterAll(() => engine.close());

    it.each([
      ['http://hooks.example.com/hook', /must use https/],
      ['ftp://hooks.example.com/hook', /must use https \(got ftp\)/],
      ['not a url', /is not an absolute URL/],
      ['https://localhost/hook', /must not point at localhost/],
      ['https://api.localhost./hook', /must not point at api\.localhost/],
      ['https://10.1.2.3/hook', /10\.1\.2\.3, which is not a public address/],
      ['https://169.254.169.254/latest/meta-data', /169\.254\.169\.254/],
      ['https://[::1]:8443/hook', /::1, which is not a public address/],
      ['https://[::ffff:127.0.0.1]/hook', /not a public address/],
      ['https://2130706433/hook', /127\.0\.0\.1, which is not a public address/],
      ['https://internal.example.test/hook', /resolves to 127\.0\.0\.1, which is not a public address/],
      ['https://mixed.example.test/hook', /resolves to 10\.0\.0\.7/],
      ['https://metadata.example.test/hook', /resolves to 169\.254\.169\.254/],
      ['https://v6-loopback.example.test/hook', /resolves to ::1/],
    ])('refuses %s', async (url, message) => {
      const refusal = engine.service.createEndpoint(owner, { url });
      await expect(refusal).rejects.toMatchObject({ code: 'webhook_url_invalid', status: 422, message: expect.stringMatching(message) });
      // The setting that lifts the refusal in development is named, except where it would not help.
      const liftable = !/^ftp:|^not a url/.test(url);
      const said = await refusal.then(() => '', (error: Error) => error.message);
      expect(said.includes('start the relay with WEBHOOK_ALLOW_PRIVATE_URLS=1'), said).toBe(liftable);
      await expect(engine.service.listEndpoints(owner)).resolves.toEqual([]);
    });
  });

  describe('saved and sent', () => {
    let engine: TestEngine;

    beforeEach(async () => {
      resetRecords();
      engine = await policyEngine();
    });
    afterEach(() => engine.close());

    it('accepts a public https URL, and a name that does not resolve yet', async () => {
      const { endpoint } = await engine.service.createEndpoint(owner, { url: 'https://hooks.example.com/ledgerwire?x=1' });
      expect(endpoint.url).toBe('https://hooks.example.com/ledgerwire?x=1');
      await expect(engine.service.createEndpoint(owner, { url: 'https://not-yet.example.test/hook' })).resolves.toBeDefined();
      await expect(engine.service.updateEndpoint(owner, endpoint.id, { url: 'https://internal.example.test/' })).rejects.toMatchObject({
        code: 'webhook_url_invalid',
      });
    });

    it('checks the DNS answer again at send time: a name re-pointed at loopback is never dialled', async () => {
      const { endpoint } = await engine.service.createEndpoint(owner, { url: 'https://hooks.example.com/hook' });
      records['hooks.example.com'] = ['127.0.0.1'];
      await engine.service.publish(owner, { type: 'connector.offline', data: {} });
      await engine.loop.runOnce();
      const { deliveries } = await engine.service.listDeliveries(owner, endpoint.id, { limit: 1, offset: 0 });
      expect(deliveries[0]?.status).toBe('pending');
      expect(deliveries[0]?.attempts).toMatchObject([
        { status_code: null, error: 'Refused: hooks.example.com resolves to 127.0.0.1, which is not a public address' },
      ]);
    });

    it('checks a literal address at send time too (a URL saved while the override was on)', async () => {
      const { endpoint } = await engine.service.createEndpoint(owner, { url: 'https://hooks.example.com/hook' });
      // As a relay once run with WEBHOOK_ALLOW_PRIVATE_URLS would have left it in the shared database.
      await engine.database.db.updateTable('webhook_endpoints').set({ url: 'https://127.0.0.1:9/hook' }).where('id', '=', endpoint.id).execute();
      await engine.service.publish(owner, { type: 'connector.offline', data: {} });
      await engine.loop.runOnce();
      const { deliveries } = await engine.service.listDeliveries(owner, endpoint.id, { limit: 1, offset: 0 });
      expect(deliveries[0]?.attempts[0]).toMatchObject({
        status_code: null,
        duration_ms: 0,
        error: 'Refused: the webhook URL must not point at 127.0.0.1, which is not a public address',
      });
    });
  });
});

describeOnDatabases('webhook URL override', (kind) => {
  it('WEBHOOK_ALLOW_PRIVATE_URLS accepts http and private addresses for development', async () => {
    const engine = await startEngine(kind, { allowPrivateUrls: true });
    try {
      for (const url of ['http://127.0.0.1:4000/hook', 'https://localhost/hook', 'http://10.0.0.5/hook', 'http://[::1]:9000/']) {
        await expect(engine.service.createEndpoint(owner, { url })).resolves.toMatchObject({ endpoint: { enabled: true } });
      }
      await expect(engine.service.createEndpoint(owner, { url: 'ftp://127.0.0.1/' })).rejects.toMatchObject({ code: 'webhook_url_invalid' });
    } finally {
      await engine.close();
    }
  });

  it('dials a host name through the policy resolver', async () => {
    const receiver = await startWebhookCatcher();
    const engine = await startEngine(kind, { allowPrivateUrls: true, resolveHost: fakeDns({ 'receiver.test': ['127.0.0.1'] }) });
    try {
      const url = receiver.url().replace('127.0.0.1', 'receiver.test');
      await engine.service.createEndpoint(owner, { url });
      await engine.service.publish(owner, { type: 'books.started', data: {} });
      await engine.loop.runOnce();
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0]?.headers['host']).toBe(new URL(url).host);
    } finally {
      await receiver.close();
      await engine.close();
    }
  });
});
