// The edge every request meets (issue 22 item 2): deep JSON, NUL and lone surrogates in path, query
// and body, integers in paths and queries read by one strict rule within 32 bits, concurrent enrolments
// of one machine, and refusals made before the router — each in the API family's body, alike on both
// databases, and nothing written for a refused request.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeOnDatabases, TEST_OPERATOR_TOKEN } from '@ledgerwire/test-kit';
import { provisionTenant as provisionBridgeTenant, type Tenant } from '../bridge/bridge-test-kit.js';
import { createTemplate, provisionTenant, sendBody, startMessagingRelay, type MessagingTestRelay, type ProvisionedTenant } from '../messaging/support/messaging-test-relay.js';

/** `{"a":{"a":…}}` nested `depth` deep, built as text (building it as a value is what overflows). */
function nestedJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

async function rowCount(relay: MessagingTestRelay, table: 'customers' | 'msg_messages' | 'connectors' | 'msg_events'): Promise<number> {
  const row = await relay.app.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describeOnDatabases('input edge', (kind) => {
  let relay: MessagingTestRelay;
  let messaging: ProvisionedTenant;
  let bridge: Tenant;

  beforeAll(async () => {
    relay = await startMessagingRelay(kind);
    messaging = await provisionTenant(relay.app);
    await createTemplate(relay.app, messaging.id, { event_key: 'invoice_ready' });
    bridge = await provisionBridgeTenant(relay);
  });
  afterAll(async () => relay.close());

  it('refuses deeply nested data on /api/messages/send and /api/events with 400 in the messaging body, storing nothing', async () => {
    const before = [await rowCount(relay, 'msg_messages'), await rowCount(relay, 'msg_events')];
    const send = JSON.stringify(sendBody({ data: { name: 'x' } })).replace('{"name":"x"}', nestedJson(5000));
    const sent = await call(relay.app, 'POST', '/api/messages/send', 400, { token: messaging.apiKey, payload: send, headers: { 'content-type': 'application/json' } });
    expect(sent.body).toEqual({ error: expect.stringContaining('more than 32 deep') });
    const event = JSON.stringify({
      event_id: 'evt-deep', event_name: 'invoice.paid', source: 'billing', org_id: messaging.orgId,
      actor: { type: 'user' }, data: { x: 1 }, occurred_at: '2026-11-20T10:00:00Z',
    }).replace('{"x":1}', `{"x":${'['.repeat(3000)}${']'.repeat(3000)}}`);
    const ingested = await call(relay.app, 'POST', '/api/events', 400, { token: messaging.apiKey, payload: event, headers: { 'content-type': 'application/json' } });
    expect(ingested.body.error).toContain('more than 32 deep');
    expect([await rowCount(relay, 'msg_messages'), await rowCount(relay, 'msg_events')]).toEqual(before);
    // 32 deep is still accepted: the limit is a bound, not a ban on nesting.
    const deepButFine = JSON.stringify(sendBody()).replace('{"name":"Ada","invoice":"INV-1"}', `{"name":"Ada","n":${nestedJson(30)}}`);
    await call(relay.app, 'POST', '/api/messages/send', 200, { token: messaging.apiKey, payload: deepButFine, headers: { 'content-type': 'application/json' } });
  });

  it('refuses NUL and lone surrogates in body strings and keys (envelope and messaging bodies), storing nothing', async () => {
    const customers = await rowCount(relay, 'customers');
    for (const name of ['Sharma\u0000Traders', 'Sharma \ud800', 'x\udc00y']) {
      const { body } = await call(relay.app, 'POST', '/api/v1/customers', 400, { token: bridge.credential, payload: { name } });
      expect(body.error.code).toBe('invalid_characters');
      expect(body.error.details[0].field).toBe('name');
    }
    const key = await call(relay.app, 'POST', '/api/v1/customers', 400, { token: bridge.credential, payload: '{"name":"A","\\u0000":1}', headers: { 'content-type': 'application/json' } });
    expect(key.body.error.code).toBe('invalid_characters');
    expect(await rowCount(relay, 'customers')).toBe(customers);

    const messages = await rowCount(relay, 'msg_messages');
    // Two different lone-surrogate ids would become one U+FFFD id on PostgreSQL and replay each other.
    for (const transactionId of ['txn-\ud800', 'txn-\udbff']) {
      const { body } = await call(relay.app, 'POST', '/api/messages/send', 400, { token: messaging.apiKey, payload: sendBody({ transaction_id: transactionId }) });
      expect(body.error).toMatch(/transaction_id holds an unpaired UTF-16 surrogate/);
    }
    expect(await rowCount(relay, 'msg_messages')).toBe(messages);
  });

  it('refuses NUL, lone surrogates and malformed percent-encoding in paths and queries, on found and unknown routes', async () => {
    const cases: [string, string, number, string][] = [
      ['GET', '/api/v1/transactions/abc%00def', 400, 'invalid_characters'],
      ['GET', `/api/v1/transactions?company_id=${bridge.companyId}&status=%00`, 400, 'invalid_characters'],
      ['GET', '/api/v1/transactions/%ED%A0%80', 400, 'bad_request'],
      ['GET', '/api/v1/transactions?x=%E0%A4', 400, 'bad_request'],
      ['GET', '/api/v1/no-such-route/%00', 400, 'invalid_characters'],
    ];
    for (const [method, url, status, code] of cases) {
      const { body } = await call(relay.app, method as 'GET', url, status, { token: bridge.credential });
      expect(body.error.code, url).toBe(code);
    }
    const messagingPath = await call(relay.app, 'GET', '/api/messages/msg%00x', 400, { token: messaging.apiKey });
    expect(messagingPath.body).toEqual({ error: expect.stringContaining('NUL') });
  });

  it('reads integers in paths and queries strictly and within 32 bits: 0x1 is not company 1', async () => {
    for (const id of ['0x1', '1e0', '+1', '%201', '01', '1.0', '2147483648', '99999999999999999999', '-1']) {
      const { body } = await call(relay.app, 'GET', `/api/v1/companies/${id}/health`, 400, { token: bridge.credential });
      expect(body.error.code, id).toBe('bad_request');
    }
    await call(relay.app, 'GET', `/api/v1/companies/${bridge.companyId}/health`, 200, { token: bridge.credential });
    for (const offset of ['1e300', '0x10', '2147483648']) {
      const { body } = await call(relay.app, 'GET', `/api/v1/transactions?company_id=${bridge.companyId}&offset=${offset}`, 400, { token: bridge.credential });
      expect(body.error.details[0].field).toBe('offset');
    }
    const operator = await call(relay.app, 'GET', '/admin/v1/transactions?company_id=0x1', 400, { token: TEST_OPERATOR_TOKEN });
    expect(operator.body.error.details[0]).toEqual({ field: 'company_id', message: expect.stringContaining('plain decimal') });
  });

  it('refuses a company id above 2,147,483,647 on the connector pairing routes with 400, not a database overflow', async () => {
    const { body: enrolled } = await call(relay.app, 'POST', '/api/v1/connectors/enroll', 200, {
      payload: { token: bridge.customerToken, machine_name: 'PC-RANGE', version: '1.0.0' },
    });
    const auth = { authorization: `Bearer ${enrolled.credential}` };
    for (const id of ['2147483648', '0x1', '1e0']) {
      await call(relay.app, 'DELETE', `/api/v1/connectors/pairings/${id}`, 400, { headers: auth });
    }
    const pair = await call(relay.app, 'POST', '/api/v1/connectors/pairings', 400, {
      headers: auth,
      payload: { company_id: 2_147_483_648, books_company_guid: 'g-1', books_company_name: 'Books' },
    });
    expect(pair.body.error.details[0].field).toBe('company_id');
    await call(relay.app, 'POST', '/api/v1/pulled-vouchers/ack', 400, {
      token: bridge.credential,
      payload: { company_id: 2_147_483_648, transaction_ids: ['t-1'] },
    });
  });

  it('enrols one machine 20 times at once: every answer 200, one connector', async () => {
    const before = await rowCount(relay, 'connectors');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        relay.app.inject({ method: 'POST', url: '/api/v1/connectors/enroll', payload: { token: bridge.customerToken, machine_name: 'PC-RACE', version: '1.0.0' } }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.json().connector_id)).size).toBe(1);
    expect(answers.filter((a) => a.json().reenrolled === false)).toHaveLength(1);
    expect(await rowCount(relay, 'connectors')).toBe(before + 1);
  });

  it('answers refusals made before the router in the family body: 431, 404, 415, 413, bad JSON', async () => {
    const address = await relay.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const huge = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.request({ host: '127.0.0.1', port, path, headers: { 'x-filler': 'a'.repeat(20_000) } }, (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        });
        request.on('error', reject);
        request.end();
      });
    const bridgeAnswer = await huge('/api/v1/customers');
    expect(bridgeAnswer.status).toBe(431);
    expect(JSON.parse(bridgeAnswer.body)).toEqual({ success: false, error: { code: 'request_headers_too_large', message: expect.any(String), details: [] } });
    const messagingAnswer = await huge('/api/health');
    expect(messagingAnswer.status).toBe(431);
    expect(JSON.parse(messagingAnswer.body)).toEqual({ error: expect.stringContaining('headers are larger') });
    expect((relay.app.server.address() as AddressInfo).port).toBe(Number(port));

    expect((await call(relay.app, 'GET', '/api/nowhere', 404)).body).toEqual({ error: 'No endpoint GET /api/nowhere' });
    const media = await call(relay.app, 'POST', '/api/v1/customers', 415, { token: bridge.credential, payload: '<name>x</name>', headers: { 'content-type': 'application/xml' } });
    expect(media.body.error.code).toBe('unsupported_media_type');
    // POST /api/events keeps the relay's 1 MiB body limit (a send's own limit fits 10 MB of attachments: attachments.test.ts).
    const large = await call(relay.app, 'POST', '/api/events', 413, { token: messaging.apiKey, payload: JSON.stringify({ data: 'x'.repeat(1_100_000) }), headers: { 'content-type': 'application/json' } });
    expect(large.body).toEqual({ error: expect.any(String) });
    const bad = await call(relay.app, 'POST', '/api/v1/customers', 400, { token: bridge.credential, payload: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(bad.body.error.code).toBe('bad_request');
  });
});
