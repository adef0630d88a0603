// Secrets of the bridge never reach the logs: the credential header, the customer token in the
// rotate path and in answers, the key secret shown once by the operator API, a connect link's page
// token and setup code.
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeOnDatabases, startRelay, type TestRelay } from '@ledgerwire/test-kit';
import { api, provisionTenant, type Tenant } from './bridge-test-kit.js';

describeOnDatabases('bridge and connect link secrets stay out of the logs', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  let logs = '';

  beforeAll(async () => {
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => (logs += chunk.toString('utf8')));
    relay = await startRelay({ database: kind, env: { RELAY_WORKERS: '0', LOG_LEVEL: 'info' }, logStream: stream });
    tenant = await provisionTenant(relay);
  });
  afterAll(() => relay.close());

  it('logs requests without the credential, the customer token or the key secret', async () => {
    const { body } = await api(relay, tenant.credential, 'POST', `/api/v1/customers/${tenant.customerToken}/rotate`, 200);
    await api(relay, tenant.credential, 'GET', `/api/v1/transactions?company_id=${tenant.companyId}`, 200);
    expect(logs).toContain('/api/v1/transactions');
    const secret = tenant.credential.split(':')[1] ?? '';
    for (const value of [secret, tenant.customerToken, body.customer.token]) expect(logs).not.toContain(value);
  });

  it('logs neither the page token of a connect link nor its setup code, whatever the answer', async () => {
    const { body } = await api(relay, tenant.credential, 'POST', '/api/v1/connect-sessions', 200, { payload: { customer_id: tenant.customerId, company_id: tenant.companyId } });
    const { url, setup_code: code } = body.connect_session;
    const pagePath = new URL(url).pathname;
    const token = pagePath.split('/').pop() ?? '';
    for (const [method, path, status] of [['GET', pagePath, 200], ['GET', `${pagePath}/state`, 200], ['POST', `${pagePath}/choose`, 409], ['GET', `${pagePath}x/state`, 404]] as const) {
      await call(relay.app, method, path, status, method === 'POST' ? { payload: { books_company_guid: 'guid-x' } } : {});
    }
    await api(relay, '', 'POST', '/api/v1/connectors/enroll', 200, { payload: { token: code, machine_name: 'LOG-PC', version: '1.0.0' } });
    await api(relay, '', 'POST', '/api/v1/connectors/enroll', 401, { payload: { token: code, machine_name: 'LOG-PC-2', version: '1.0.0' } });
    expect(logs).toContain('/api/v1/connect-sessions');
    for (const value of [token, code, code.replace('-', '')]) expect(logs).not.toContain(value);
  });
});
