// Connect sessions through /api/v1 and connector enrolment by setup code: create (company named or
// created), progress as a connector enrols and pairs, the completion webhook (verified with the
// standardwebhooks library), cancel, expiry, one use per code, and guessing refused alike and limited.
import { ConnectSessionCompletedEventOut } from '@ledgerwire/shared';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { keyedDigestFor } from '../../../src/security/encryption-key.js';
import { KeyedDigest } from '../../../src/security/keyed-digest.js';
import { sha256Hex } from '../../../src/security/secret-hash.js';
import { call, describeOnDatabases, startWebhookCatcher, type TestRelay } from '@ledgerwire/test-kit';
import { admin, api, provisionTenant, startBridgeRelay, type Tenant } from '../bridge-test-kit.js';

const enrolBody = (code: string, machine = 'SHOP-PC') => ({ token: code, machine_name: machine, version: '0.9.0' });

describeOnDatabases('connect sessions', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  // Each test guesses from its own address, so one test's wrong codes never count against another's.
  let address = 0;
  const nextAddress = () => `10.9.0.${++address}`;
  const enrol = (code: string, status: number, machine?: string, remoteAddress = nextAddress()) =>
    call(relay.app, 'POST', '/api/v1/connectors/enroll', status, { payload: enrolBody(code, machine), remoteAddress });
  const create = (payload: Record<string, unknown>, status = 200) => api(relay, tenant.credential, 'POST', '/api/v1/connect-sessions', status, { payload });

  beforeAll(async () => {
    relay = await startBridgeRelay(kind, { PUBLIC_URL: 'https://relay.example.com' });
    tenant = await provisionTenant(relay);
  });
  afterAll(() => relay.close());

  it('creates a session for a company to create: a link, a readable setup code, pending for 7 days', async () => {
    const before = Date.now();
    const { body } = await create({ customer_id: tenant.customerId, company_name: 'Sharma Traders Retail', return_url: 'https://erp.example.com/done' });
    const session = body.connect_session;
    expect(session).toMatchObject({
      id: expect.stringMatching(/^cs_/),
      customer_id: tenant.customerId,
      company_name: 'Sharma Traders Retail',
      status: 'pending',
      return_url: 'https://erp.example.com/done',
      connector_id: null,
      url: expect.stringMatching(/^https:\/\/relay\.example\.com\/connect\/lwcp_[A-Za-z0-9_-]{43}#code=[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/),
      setup_code: expect.stringMatching(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/),
    });
    const lifetime = Date.parse(session.expires_at) - before;
    expect(lifetime).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect(lifetime).toBeLessThanOrEqual(7 * 86_400_000 + 60_000);
    const { body: companies } = await api(relay, tenant.credential, 'GET', `/api/v1/companies?customer_id=${tenant.customerId}`, 200);
    expect(companies.companies.map((c: any) => c.company_id)).toContain(session.company_id);

    // Neither the code nor the page token is kept in clear.
    const row = await relay.app.database.db.selectFrom('connect_sessions').selectAll().where('id', '=', session.id).executeTakeFirstOrThrow();
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(session.setup_code.replace('-', ''));
    expect(stored).not.toContain(session.url.split('/').pop().split('#')[0]);
    expect(session.url.endsWith(`#code=${session.setup_code}`)).toBe(true);
    // Nor as a plain SHA-256, which a copy of the database would undo offline (the code has 40 bits):
    // an HMAC under a key derived from the relay's encryption key, which is not in the database.
    const canonical = session.setup_code.replace('-', '');
    const pageToken = session.url.split('/').pop().split('#')[0];
    for (const plain of [canonical, `setup-code:${canonical}`, pageToken]) expect(stored).not.toContain(sha256Hex(plain));
    expect(row.setup_code_hash).toMatch(/^hmac:v1:[0-9a-f]{64}$/);
    const relayKeyed = keyedDigestFor(relay.app.config, 'connect-session-secrets');
    expect(row.setup_code_hash).toBe(relayKeyed.digest(`setup-code:${canonical}`));
    expect(row.page_token_hash).toBe(relayKeyed.digest(pageToken));
    expect(row.setup_code_hash).not.toBe(new KeyedDigest(randomBytes(32), 'connect-session-secrets').digest(`setup-code:${canonical}`));

    const { body: read } = await api(relay, tenant.credential, 'GET', `/api/v1/connect-sessions/${session.id}`, 200);
    expect(read.connect_session).toEqual({ ...session, url: undefined, setup_code: undefined, company_id: session.company_id });
    expect(JSON.stringify(read)).not.toContain(session.setup_code);
  });

  it('refuses bad requests with 4xx and says what to fix', async () => {
    const missing = await create({ company_name: 'X' }, 400);
    expect(JSON.stringify(missing.body.error)).toContain('customer_id');
    expect(JSON.stringify(missing.body.error)).toContain('required');
    const neither = await create({ customer_id: tenant.customerId }, 400);
    expect(JSON.stringify(neither.body.error)).toContain('exactly one of company_id');
    await create({ customer_id: tenant.customerId, company_id: tenant.companyId, company_name: 'Both' }, 400);
    await create({ customer_id: tenant.customerId, company_id: tenant.companyId, expires_in_seconds: 8 * 86_400 }, 400);
    await create({ customer_id: tenant.customerId, company_id: tenant.companyId, expires_in_seconds: 10 }, 400);
    await create({ customer_id: tenant.customerId, company_id: tenant.companyId, return_url: 'javascript:alert(1)' }, 400);
    await create({ customer_id: 'cus_nobody', company_name: 'Nobody Ltd' }, 404);
    await create({ customer_id: tenant.customerId, company_id: 999_999 }, 404);
    const { body: other } = await api(relay, tenant.credential, 'POST', '/api/v1/companies', 200, { payload: { name: 'Unattached' } });
    const wrong = await create({ customer_id: tenant.customerId, company_id: other.company_id }, 422);
    expect(wrong.body.error.message).toContain('attach it first');
    await api(relay, tenant.credential, 'GET', '/api/v1/connect-sessions/cs_nothing', 404);
    await api(relay, tenant.credential, 'GET', '/api/v1/connect-sessions', 400);
    // Another application sees none of this application's sessions.
    const stranger = await provisionTenant(relay, { name: 'Stranger' });
    const { body } = await create({ customer_id: tenant.customerId, company_id: tenant.companyId });
    await api(relay, stranger.credential, 'GET', `/api/v1/connect-sessions/${body.connect_session.id}`, 404);
    await api(relay, stranger.credential, 'POST', `/api/v1/connect-sessions/${body.connect_session.id}/cancel`, 404);
  });

  it('a typed code enrols one connector once, and pairing the company completes the session with a signed webhook', async () => {
    const receiver = await startWebhookCatcher();
    const { body: hook } = await api(relay, tenant.credential, 'POST', '/api/v1/webhooks', 200, { payload: { url: receiver.url(), events: ['connect_session.completed'] } });
    try {
      const { body } = await create({ customer_id: tenant.customerId, company_id: tenant.companyId });
      const session = body.connect_session;
      const typed = ` ${session.setup_code.replace('-', ' ').toLowerCase()} `;
      const { body: enrolled } = await enrol(typed, 200, 'SHARMA-PC');
      const { body: progress } = await api(relay, tenant.credential, 'GET', `/api/v1/connect-sessions/${session.id}`, 200);
      expect(progress.connect_session).toMatchObject({ status: 'connector_enrolled', connector_id: enrolled.connector_id, connector_enrolled_at: expect.any(String) });

      // Used once: the same code is refused exactly as an unknown one is, even for another machine.
      const again = await enrol(session.setup_code, 401, 'OTHER-PC');
      const unknown = await enrol('ZZZZ-ZZZZ', 401);
      expect(again.body).toEqual(unknown.body);
      expect(again.body.error.code).toBe('setup_code_invalid');

      await call(relay.app, 'POST', '/api/v1/connectors/pairings', 200, {
        token: enrolled.credential,
        payload: { company_id: tenant.companyId, books_company_guid: 'guid-sharma', books_company_name: 'Sharma Traders (Books)' },
      });
      const { body: done } = await api(relay, tenant.credential, 'GET', `/api/v1/connect-sessions/${session.id}`, 200);
      expect(done.connect_session).toMatchObject({ status: 'completed', completed_at: expect.any(String) });
      const { body: list } = await api(relay, tenant.credential, 'GET', `/api/v1/connect-sessions?customer_id=${tenant.customerId}`, 200);
      expect(list.connect_sessions[0]).toMatchObject({ id: session.id, status: 'completed' });

      // Pairing again raises nothing more.
      await call(relay.app, 'POST', '/api/v1/connectors/pairings', 200, {
        token: enrolled.credential,
        payload: { company_id: tenant.companyId, books_company_guid: 'guid-sharma', books_company_name: 'Sharma Traders (Books)' },
      });
      await relay.app.webhooks.deliveryLoop.runOnce();
      const [delivered] = await receiver.deliveries(1);
      expect(receiver.received).toHaveLength(1);
      const verified = new Webhook(hook.webhook.secret).verify(delivered!.body, delivered!.headers) as any;
      // The body is the one the OpenAPI document's webhooks section describes.
      expect(ConnectSessionCompletedEventOut.safeParse(verified).success).toBe(true);
      expect(verified).toMatchObject({
        type: 'connect_session.completed',
        data: {
          connect_session_id: session.id,
          customer_id: tenant.customerId,
          company_id: tenant.companyId,
          company_name: 'Sharma Traders FY25',
          connector_id: enrolled.connector_id,
          machine_name: 'SHARMA-PC',
          books_company_guid: 'guid-sharma',
          books_company_name: 'Sharma Traders (Books)',
          occurred_at: expect.any(String),
        },
      });
      await api(relay, tenant.credential, 'POST', `/api/v1/connect-sessions/${session.id}/cancel`, 409);
    } finally {
      await api(relay, tenant.credential, 'DELETE', `/api/v1/webhooks/${hook.webhook.id}`, 200);
      await receiver.close();
    }
  });

  it('a cancelled or expired session refuses its code, the same way as a wrong one', async () => {
    const { body: first } = await create({ customer_id: tenant.customerId, company_id: tenant.companyId });
    const { body: cancelled } = await api(relay, tenant.credential, 'POST', `/api/v1/connect-sessions/${first.connect_session.id}/cancel`, 200);
    expect(cancelled.connect_session).toMatchObject({ status: 'cancelled', cancelled_at: expect.any(String) });
    await api(relay, tenant.credential, 'POST', `/api/v1/connect-sessions/${first.connect_session.id}/cancel`, 200);
    const refused = await enrol(first.connect_session.setup_code, 401);

    const { body: second } = await create({ customer_id: tenant.customerId, company_id: tenant.companyId, expires_in_seconds: 300 });
    await relay.app.database.db.updateTable('connect_sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', second.connect_session.id).execute();
    const { body: expired } = await api(relay, tenant.credential, 'GET', `/api/v1/connect-sessions/${second.connect_session.id}`, 200);
    expect(expired.connect_session.status).toBe('expired');
    const late = await enrol(second.connect_session.setup_code, 401);
    expect(late.body).toEqual(refused.body);
    await api(relay, tenant.credential, 'POST', `/api/v1/connect-sessions/${second.connect_session.id}/cancel`, 409);
    const connectors = await relay.app.database.db.selectFrom('connectors').select('machine_name').where('machine_name', '=', 'SHOP-PC').execute();
    expect(connectors).toEqual([]);
  });

  it('two computers typing the same code at once: one is enrolled, the other refused, nothing half-written', async () => {
    const { body } = await create({ customer_id: tenant.customerId, company_name: 'Sharma Race' });
    const session = body.connect_session;
    const results = await Promise.all(
      ['RACE-PC-1', 'RACE-PC-2', 'RACE-PC-3'].map((machine) =>
        relay.app.inject({ method: 'POST', url: '/api/v1/connectors/enroll', payload: enrolBody(session.setup_code, machine), remoteAddress: nextAddress() }),
      ),
    );
    expect(results.map((result) => result.statusCode).sort()).toEqual([200, 401, 401]);
    const winner = results.find((result) => result.statusCode === 200)!.json();
    const raced = await relay.app.database.db.selectFrom('connectors').select('id').where('machine_name', 'like', 'RACE-PC-%').execute();
    expect(raced.map((row) => row.id)).toEqual([winner.connector_id]);
    const { body: read } = await api(relay, tenant.credential, 'GET', `/api/v1/connect-sessions/${session.id}`, 200);
    expect(read.connect_session.connector_id).toBe(winner.connector_id);
  });

  it('support pairing the company with the enrolled connector completes the session too', async () => {
    const { body } = await create({ customer_id: tenant.customerId, company_name: 'Sharma Support Pairing' });
    const session = body.connect_session;
    const { body: enrolled } = await enrol(session.setup_code, 200, 'SUPPORT-PC');
    await admin(relay, 'POST', `/admin/v1/companies/${session.company_id}/pair`, 200, { connector_id: enrolled.connector_id, books_company_guid: 'guid-support' });
    const { body: done } = await api(relay, tenant.credential, 'GET', `/api/v1/connect-sessions/${session.id}`, 200);
    expect(done.connect_session.status).toBe('completed');
  });

  it('the customer token still enrols as before', async () => {
    const { body } = await enrol(tenant.customerToken, 200, 'TOKEN-PC');
    expect(body.connector_id).toMatch(/^con_/);
    await enrol('lwct_not-a-real-token', 401);
  });
});

describeOnDatabases('connect sessions for support', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;

  beforeAll(async () => {
    relay = await startBridgeRelay(kind);
    tenant = await provisionTenant(relay);
  });
  afterAll(() => relay.close());

  it('lists a customer’s sessions through the operator API and cancels one, which then enrols nothing', async () => {
    const created = async (name: string) =>
      (await api(relay, tenant.credential, 'POST', '/api/v1/connect-sessions', 200, { payload: { customer_id: tenant.customerId, company_name: name } })).body.connect_session;
    const older = await created('Older Shop');
    const newer = await created('Newer Shop');
    const { body: listed } = await admin(relay, 'GET', `/admin/v1/customers/${tenant.customerId}/connect-sessions`, 200);
    expect(listed.connect_sessions.map((s: any) => [s.id, s.company_name, s.status])).toEqual([
      [newer.id, 'Newer Shop', 'pending'],
      [older.id, 'Older Shop', 'pending'],
    ]);
    expect(JSON.stringify(listed)).not.toContain(newer.setup_code);

    const { body: cancelled } = await admin(relay, 'POST', `/admin/v1/connect-sessions/${newer.id}/cancel`, 200);
    expect(cancelled.connect_session).toMatchObject({ id: newer.id, status: 'cancelled', cancelled_at: expect.any(String) });
    const refused = await call(relay.app, 'POST', '/api/v1/connectors/enroll', 401, { payload: enrolBody(newer.setup_code), remoteAddress: '10.8.0.1' });
    expect(refused.body.error.code).toBe('setup_code_invalid');
    await call(relay.app, 'POST', '/api/v1/connectors/enroll', 200, { payload: enrolBody(older.setup_code), remoteAddress: '10.8.0.2' });

    await admin(relay, 'GET', '/admin/v1/customers/cus_nobody/connect-sessions', 404);
    await admin(relay, 'POST', '/admin/v1/connect-sessions/cs_nothing/cancel', 404);
  });
});

describeOnDatabases('setup code guessing', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;

  beforeAll(async () => {
    relay = await startBridgeRelay(kind, { CONNECT_SETUP_CODE_ATTEMPTS_PER_HOUR: '3' });
    tenant = await provisionTenant(relay);
  });
  afterAll(() => relay.close());

  it('counts codes per client address: past the limit even the right code waits, another address is unaffected', async () => {
    const { body } = await api(relay, tenant.credential, 'POST', '/api/v1/connect-sessions', 200, { payload: { customer_id: tenant.customerId, company_id: tenant.companyId } });
    const code = body.connect_session.setup_code;
    const guess = (token: string, status: number, remoteAddress = '10.1.1.1') =>
      call(relay.app, 'POST', '/api/v1/connectors/enroll', status, { payload: enrolBody(token), remoteAddress });
    for (const wrong of ['AAAA-AAAA', 'AAAA-AAAB', 'not a code']) {
      const { body: refused } = await guess(wrong, 401);
      expect(refused.error.code).toBe('setup_code_invalid');
    }
    const limited = await guess(code, 429);
    expect(limited.body.error.code).toBe('setup_code_attempts_exceeded');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The customer token is not a guessable code and is not counted with them.
    await guess(tenant.customerToken, 200);
    await guess(code, 200, '10.1.1.2');
  });
});

describeOnDatabases('setup code guessing behind a reverse proxy', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;

  beforeAll(async () => {
    relay = await startBridgeRelay(kind, { CONNECT_SETUP_CODE_ATTEMPTS_PER_HOUR: '2', TRUST_PROXY: '10.0.0.0/8' });
    tenant = await provisionTenant(relay);
  });
  afterAll(() => relay.close());

  it('counts each client the proxy names (TRUST_PROXY), and only a trusted proxy may name one', async () => {
    const { body } = await api(relay, tenant.credential, 'POST', '/api/v1/connect-sessions', 200, { payload: { customer_id: tenant.customerId, company_id: tenant.companyId } });
    const code = body.connect_session.setup_code;
    const through = (from: string, client: string, token: string, status: number) =>
      call(relay.app, 'POST', '/api/v1/connectors/enroll', status, { payload: enrolBody(token), remoteAddress: from, headers: { 'x-forwarded-for': client } });
    await through('10.0.0.5', '203.0.113.7', 'AAAA-AAAA', 401);
    await through('10.0.0.5', '203.0.113.7', 'AAAA-AAAB', 401);
    expect((await through('10.0.0.5', '203.0.113.7', code, 429)).body.error.code).toBe('setup_code_attempts_exceeded');
    // A peer outside TRUST_PROXY cannot claim a fresh address per guess: it is counted as itself.
    await through('198.51.100.9', '203.0.113.8', 'AAAA-AAAC', 401);
    await through('198.51.100.9', '203.0.113.9', 'AAAA-AAAD', 401);
    await through('198.51.100.9', '203.0.113.10', code, 429);
    // Another shop behind the same proxy is unaffected.
    await through('10.0.0.5', '203.0.113.20', code, 200);
  });
});
