// The bridge contract's authentication rules 1–3 and the 429 budget, as a client sees them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeOnDatabases, type TestRelay } from '@ledgerwire/test-kit';
import { admin, api, createKey, provisionTenant, startBridgeRelay, type Tenant } from './bridge-test-kit.js';

function expectEnvelope(body: any, code: string) {
  expect(body).toMatchObject({ success: false, error: { code, message: expect.any(String), details: expect.any(Array) } });
}

describeOnDatabases('bridge authentication and authorisation', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  let other: Tenant;

  beforeAll(async () => {
    relay = await startBridgeRelay(kind, { BRIDGE_RATE_LIMIT_PER_MINUTE: '1000' });
    tenant = await provisionTenant(relay);
    other = await provisionTenant(relay, { name: 'Other Software' });
  });
  afterAll(() => relay.close());

  it('ping answers for a valid credential with the key it is', async () => {
    const { body } = await api(relay, tenant.credential, 'GET', '/api/v1/ping', 200);
    expect(body).toEqual({ success: true, key_id: tenant.keyId, application_id: tenant.applicationId, environment: 'test', capabilities: [] });
  });

  it('rule 1: a missing, malformed, wrong or revoked credential is 401 with the error envelope', async () => {
    expectEnvelope((await call(relay.app, 'GET', '/api/v1/ping', 401)).body, 'bridge_credential_missing');
    const [keyId, secret] = tenant.credential.split(':') as [string, string];
    const malformed = [
      `Bearer ${tenant.credential} `,
      `Bearer ${tenant.credential}\t`,
      `Bearer  ${tenant.credential}`,
      `bearer ${tenant.credential}`,
      `Basic ${tenant.credential}`,
      `Bearer ${keyId}`,
      `Bearer ${keyId}:`,
      `Bearer :${secret}`,
      `Bearer ${keyId}:${secret}:extra`,
      `Bearer ${keyId} ${secret}`,
    ];
    for (const header of malformed) {
      const { body } = await call(relay.app, 'GET', '/api/v1/ping', 401, { headers: { authorization: header } });
      expectEnvelope(body, 'bridge_credential_invalid');
    }
    expectEnvelope((await api(relay, `${keyId}:${secret}x`, 'GET', '/api/v1/ping', 401)).body, 'bridge_credential_invalid');
    expectEnvelope((await api(relay, `lwk_test_0000000000000000:${secret}`, 'GET', '/api/v1/ping', 401)).body, 'bridge_credential_invalid');

    const spare = await createKey(relay, tenant.applicationId);
    await api(relay, spare.credential, 'GET', '/api/v1/ping', 200);
    await admin(relay, 'DELETE', `/admin/v1/keys/${spare.key_id}`, 200);
    expectEnvelope((await api(relay, spare.credential, 'GET', '/api/v1/ping', 401)).body, 'bridge_credential_invalid');
    // The application's other key is untouched by the revocation (contract rule 5: rotate one alone).
    await api(relay, tenant.credential, 'GET', '/api/v1/ping', 200);
  });

  it('rules 2–3: own attached company passes by query or header', async () => {
    await api(relay, tenant.credential, 'GET', `/api/v1/transactions?company_id=${tenant.companyId}`, 200);
    await api(relay, tenant.credential, 'GET', '/api/v1/transactions', 200, { headers: { 'x-service-company': String(tenant.companyId) } });
  });

  it('rules 2–3: another application’s company is 403', async () => {
    const { body } = await api(relay, tenant.credential, 'GET', `/api/v1/transactions?company_id=${other.companyId}`, 403);
    expectEnvelope(body, 'company_forbidden');
    await api(relay, tenant.credential, 'GET', '/api/v1/pulled-vouchers', 403, { headers: { 'x-service-company': String(other.companyId) } });
    await api(relay, tenant.credential, 'POST', `/api/v1/invoices?company_id=${other.companyId}`, 403, {
      payload: { voucher_number: '1', voucher_type: 'Sales', party_ledger: 'A', date: '2025-04-01', ledger_entries: [{ ledger_name: 'A', amount: 1, is_debit: true }] },
    });
    await api(relay, tenant.credential, 'GET', `/api/v1/companies/${other.companyId}/health`, 403);
    await api(relay, tenant.credential, 'POST', `/api/v1/companies/${other.companyId}/customer`, 403, { payload: { customer_id: tenant.customerId } });
  });

  it('rules 2–3: a company not attached to a customer is 403 until attached', async () => {
    const { body: created } = await api(relay, tenant.credential, 'POST', '/api/v1/companies', 200, { payload: { name: 'Unattached Books' } });
    const { body } = await api(relay, tenant.credential, 'GET', `/api/v1/transactions?company_id=${created.company_id}`, 403);
    expectEnvelope(body, 'company_forbidden');
    await api(relay, tenant.credential, 'POST', `/api/v1/companies/${created.company_id}/customer`, 200, { payload: { customer_id: tenant.customerId } });
    await api(relay, tenant.credential, 'GET', `/api/v1/transactions?company_id=${created.company_id}`, 200);
    await api(relay, tenant.credential, 'DELETE', `/api/v1/companies/${created.company_id}/customer`, 200);
    await api(relay, tenant.credential, 'GET', `/api/v1/transactions?company_id=${created.company_id}`, 403);
  });

  it('rules 2–3: a books company GUID, or an integer that is no company of the key, in place of company_id is 403', async () => {
    for (const value of ['7b3c1d2e-0000-4000-8000-000000000001', '7B3C1D2E-0000-4000-8000-000000000001-00000001', '0', '99999999999']) {
      const { body } = await api(relay, tenant.credential, 'GET', `/api/v1/pulled-vouchers?company_id=${encodeURIComponent(value)}`, 403);
      expectEnvelope(body, 'company_forbidden');
    }
    await api(relay, tenant.credential, 'GET', '/api/v1/pulled-vouchers', 403, { headers: { 'x-service-company': '7b3c1d2e-0000-4000-8000-000000000001' } });
  });

  it('a company_id that is not an integer (abc, a name, -1, 1.5) is 400 company_id_invalid, not 403', async () => {
    for (const value of ['abc', 'Sharma Traders FY25', '-1', '1.5', 'f3a1c2d4-guid']) {
      const { body } = await api(relay, tenant.credential, 'GET', `/api/v1/pulled-vouchers?company_id=${encodeURIComponent(value)}`, 400);
      expectEnvelope(body, 'company_id_invalid');
      expect(body.error.details).toEqual([{ field: 'company_id', message: 'must be a positive integer' }]);
    }
    await api(relay, tenant.credential, 'GET', '/api/v1/transactions', 400, { headers: { 'x-service-company': 'abc' } });
  });

  it('a company-scoped call without a company is 400; query and header that disagree are 400', async () => {
    expectEnvelope((await api(relay, tenant.credential, 'GET', '/api/v1/transactions', 400)).body, 'company_required');
    await api(relay, tenant.credential, 'GET', `/api/v1/transactions?company_id=${tenant.companyId}`, 400, { headers: { 'x-service-company': String(other.companyId) } });
  });
});

describeOnDatabases('bridge rate limit', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;

  beforeAll(async () => {
    relay = await startBridgeRelay(kind, { BRIDGE_RATE_LIMIT_PER_MINUTE: '5' });
    tenant = await provisionTenant(relay); // uses 2 of the key's 5
  });
  afterAll(() => relay.close());

  it('answers 429 with Retry-After once the key’s per-minute budget is spent, per key', async () => {
    let refused: { body: any; headers: Record<string, unknown> } | undefined;
    for (let i = 0; i < 10 && !refused; i++) {
      const response = await relay.app.inject({ method: 'GET', url: '/api/v1/ping', headers: { authorization: `Bearer ${tenant.credential}` } });
      if (response.statusCode === 429) refused = { body: response.json(), headers: response.headers };
      else expect(response.statusCode).toBe(200);
    }
    expect(refused, 'no 429 within 10 calls').toBeDefined();
    expectEnvelope(refused?.body, 'rate_limited');
    const retryAfter = Number(refused?.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // On PostgreSQL the counter lives in the database (shared by every relay process on it); SQLite
    // has one process, which counts per-minute windows in memory.
    const rows = await relay.app.database.db.selectFrom('rate_limit_counters').selectAll().where('scope', 'like', `%${tenant.keyId}%`).execute();
    expect(rows.length > 0).toBe(kind === 'postgres');
    // Another key of the same application has its own budget.
    const fresh = await createKey(relay, tenant.applicationId);
    await api(relay, fresh.credential, 'GET', '/api/v1/ping', 200);
  });
});
