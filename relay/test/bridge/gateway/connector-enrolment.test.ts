// Enrolment with the customer token and the connector credential that authenticates the socket:
// good and bad tokens, a rotated token (refused, while the enrolled machine keeps working), the
// credential stored only as a hash, re-enrolment of the same machine, and every refusal of the socket.
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, describeOnDatabases, startRelay, type TestRelay } from '@ledgerwire/test-kit';
import { TestConnector } from '../../helpers/test-connector.js';
import { createTenant, type Tenant } from './gateway-fixtures.js';

describeOnDatabases('connector enrolment and socket authentication', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  let baseUrl: string;
  const open: TestConnector[] = [];

  beforeEach(async () => {
    relay = await startRelay({ database: kind, env: { RELAY_WORKERS: '0' } });
    baseUrl = await relay.app.listen({ port: 0, host: '127.0.0.1' });
    tenant = await createTenant(relay.app);
  });
  afterEach(async () => {
    for (const connector of open.splice(0)) if (connector.isOpen) await connector.close();
    await relay.close();
  });

  const connect = async (credential: string | undefined) => {
    const connector = await TestConnector.connect(baseUrl, credential);
    open.push(connector);
    return connector;
  };

  it('enrols with the customer token and keeps only the SHA-256 of the credential', async () => {
    const { body } = await call(relay.app, 'POST', '/api/v1/connectors/enroll', 200, {
      payload: { token: tenant.customerToken, machine_name: 'FRONT-DESK-PC', version: '0.3.1' },
    });
    expect(body).toEqual({ success: true, connector_id: expect.stringMatching(/^con_/), credential: expect.any(String), reenrolled: false });
    expect(body.credential.startsWith(`${body.connector_id}:`)).toBe(true);

    const row = await relay.app.database.db.selectFrom('connectors').selectAll().where('id', '=', body.connector_id).executeTakeFirstOrThrow();
    const secret = body.credential.slice(body.connector_id.length + 1);
    expect(row.credential_hash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row).toMatchObject({ customer_id: tenant.customerId, application_id: tenant.applicationId, machine_name: 'FRONT-DESK-PC', version: '0.3.1', online: 0 });

    const welcome = await (await connect(body.credential)).hello();
    expect(welcome.connector_id).toBe(body.connector_id);
  });

  it('refuses an unknown token with 401 and a malformed body with 400', async () => {
    const { body } = await call(relay.app, 'POST', '/api/v1/connectors/enroll', 401, {
      payload: { token: `${tenant.customerToken}x`, machine_name: 'PC', version: '1' },
    });
    expect(body).toMatchObject({ success: false, error: { code: 'enrolment_token_invalid' } });
    await call(relay.app, 'POST', '/api/v1/connectors/enroll', 401, { payload: { token: 'not-a-token', machine_name: 'PC', version: '1' } });
    const bad = await call(relay.app, 'POST', '/api/v1/connectors/enroll', 400, { payload: { token: tenant.customerToken, machine_name: 'a\u0007b', version: '1' } });
    expect(bad.body.error.details[0].field).toBe('machine_name');
    await call(relay.app, 'POST', '/api/v1/connectors/enroll', 400, { payload: { token: tenant.customerToken } });
    const count = await relay.app.database.db.selectFrom('connectors').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('after a token rotation refuses the old token while the enrolled machine keeps working', async () => {
    const enrolled = await TestConnector.enroll(relay.app, { token: tenant.customerToken, machineName: 'OFFICE-1' });
    const { body: rotated } = await call(relay.app, 'POST', `/api/v1/customers/${encodeURIComponent(tenant.customerToken)}/rotate`, 200, { token: tenant.apiKey });
    const newToken: string = rotated.customer.token;
    expect(newToken).not.toBe(tenant.customerToken);

    await call(relay.app, 'POST', '/api/v1/connectors/enroll', 401, { payload: { token: tenant.customerToken, machine_name: 'OFFICE-2', version: '1' } });
    const welcome = await (await connect(enrolled.credential)).hello();
    expect(welcome.connector_id).toBe(enrolled.connector_id);
    const second = await TestConnector.enroll(relay.app, { token: newToken, machineName: 'OFFICE-2' });
    expect(second.connector_id).not.toBe(enrolled.connector_id);
  });

  it('re-enrolling a machine keeps its connector id and retires the old credential', async () => {
    const first = await TestConnector.enroll(relay.app, { token: tenant.customerToken, machineName: 'SHOP' });
    const again = await TestConnector.enroll(relay.app, { token: tenant.customerToken, machineName: 'SHOP', version: '2.0.0' });
    expect(again).toMatchObject({ connector_id: first.connector_id, reenrolled: true });
    expect(again.credential).not.toBe(first.credential);
    await expect(connect(first.credential)).rejects.toMatchObject({ status: 401 });
    await (await connect(again.credential)).hello();
  });

  it('refuses the socket without a credential, with a wrong or malformed one, and plain HTTP', async () => {
    const enrolled = await TestConnector.enroll(relay.app, { token: tenant.customerToken, machineName: 'PC' });
    const missing = await connect(undefined).catch((error: { status: number; body: string }) => error);
    expect(missing).toMatchObject({ status: 401 });
    expect(JSON.parse((missing as { body: string }).body).error.code).toBe('connector_credential_missing');

    const [id, secret] = enrolled.credential.split(':') as [string, string];
    const otherLast = secret.endsWith('A') ? 'B' : 'A';
    for (const wrong of [`${id}:${secret.slice(0, -1)}${otherLast}`, `${id}:${secret}x`, secret, tenant.customerToken, `con_000000000000000000000000:${secret}`]) {
      const refused = await connect(wrong).catch((error: { status: number; body: string }) => error);
      expect(refused, wrong).toMatchObject({ status: 401 });
    }
    const plain = await call(relay.app, 'GET', '/api/v1/connectors/socket', 426, { token: enrolled.credential });
    expect(plain.body.error.code).toBe('connector_upgrade_required');
    await call(relay.app, 'GET', '/api/v1/connectors/socket', 401, {});
  });
});
