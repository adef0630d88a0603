// Every request body in the OpenAPI document at /docs carries an example that its own schema accepts,
// and the examples an integrator starts with (application, key, customer, company, attach, invoice,
// ledger, webhook, tenant, template, send) are accepted when posted for real, in that order.
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REQUEST_BODY_EXAMPLES } from '../../src/http/openapi-examples.js';
import { call, describeOnDatabases, startRelay, TEST_OPERATOR_TOKEN, type TestRelay } from '@ledgerwire/test-kit';

type Media = { schema: object; example?: unknown };
type Operation = { requestBody?: { content: Record<string, Media> } };

/** The document's schemas keep the `$id` of their component; Ajv would take each as a URI to register. */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== '$id').map(([key, inner]) => [key, withoutIds(inner)]));
}

function example<T = Record<string, unknown>>(key: string): T {
  const value = REQUEST_BODY_EXAMPLES[key];
  if (value === undefined) throw new Error(`no example for ${key}`);
  return structuredClone(value) as T;
}

describeOnDatabases('OpenAPI request body examples', (kind) => {
  let relay: TestRelay;
  beforeAll(async () => {
    relay = await startRelay({ database: kind, env: { WEBHOOK_ALLOW_PRIVATE_URLS: '0' } });
  });
  afterAll(() => relay.close());

  it('gives every request body an example that validates against its schema', async () => {
    const { body: document } = await call(relay.app, 'GET', '/docs/json', 200);
    const resolved = (await SwaggerParser.dereference(structuredClone(document))) as { paths: Record<string, Record<string, Operation>> };
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    const problems: string[] = [];
    let bodies = 0;
    for (const [path, operations] of Object.entries(resolved.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const media = operation.requestBody?.content['application/json'];
        if (!media) continue;
        bodies++;
        const name = `${method.toUpperCase()} ${path}`;
        if (media.example === undefined) {
          problems.push(`${name}: no example (add one to relay/src/http/openapi-examples.ts)`);
          continue;
        }
        const validate = ajv.compile(withoutIds(media.schema) as object);
        if (!validate(media.example)) problems.push(`${name}: ${ajv.errorsText(validate.errors)}`);
      }
    }
    expect(bodies).toBeGreaterThan(40);
    expect(problems).toEqual([]);
    // No example is left over for a route that no longer exists.
    const documented = new Set(Object.entries(resolved.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)));
    expect(Object.keys(REQUEST_BODY_EXAMPLES).filter((key) => !documented.has(key))).toEqual([]);
  });

  it('says nothing of how the contracts were written and links nowhere outside the relay', async () => {
    const { body: document } = await call(relay.app, 'GET', '/docs/json', 200);
    const text = JSON.stringify(document);
    expect(text).not.toMatch(/\.\.\/shared|spec\/[a-z-]+\.md|the contracts? (say|says|was|were)/i);
  });

  it('accepts the examples an integrator starts with, posted for real', async () => {
    const app = relay.app;
    const operator = { token: TEST_OPERATOR_TOKEN };
    const { body: created } = await call(app, 'POST', '/admin/v1/applications', 201, { ...operator, payload: example('POST /admin/v1/applications') });
    const { body: key } = await call(app, 'POST', `/admin/v1/applications/${created.application.id}/keys`, 201, {
      ...operator,
      payload: example('POST /admin/v1/applications/{id}/keys'),
    });
    const auth = { token: key.credential as string };
    const { body: customer } = await call(app, 'POST', '/api/v1/customers', 200, { ...auth, payload: example('POST /api/v1/customers') });
    const { body: company } = await call(app, 'POST', '/api/v1/companies', 200, { ...auth, payload: example('POST /api/v1/companies') });
    const attach = { ...example('POST /api/v1/companies/{id}/customer'), customer_id: String(customer.customer.id) };
    await call(app, 'POST', `/api/v1/companies/${company.company_id}/customer`, 200, { ...auth, payload: attach });

    const { body: accepted } = await call(app, 'POST', `/api/v1/invoices?company_id=${company.company_id}`, 200, { ...auth, payload: example('POST /api/v1/invoices') });
    expect(accepted).toMatchObject({ success: true, company_id: company.company_id });
    for (const type of ['ledger', 'stock_item']) {
      await call(app, 'POST', `/api/v1/masters/${type}?company_id=${company.company_id}`, 200, { ...auth, payload: example(`POST /api/v1/masters/${type}`) });
    }
    for (const endpoint of ['receipts', 'credit-notes', 'journals']) {
      await call(app, 'POST', `/api/v1/${endpoint}?company_id=${company.company_id}`, 200, { ...auth, payload: example(`POST /api/v1/${endpoint}`) });
    }
    const { body: webhook } = await call(app, 'POST', '/api/v1/webhooks', 200, { ...auth, payload: example('POST /api/v1/webhooks') });
    expect(webhook.webhook.events).toEqual(example<{ events: string[] }>('POST /api/v1/webhooks').events);

    const { body: tenant } = await call(app, 'POST', '/admin/v1/tenants', 201, { ...operator, payload: example('POST /admin/v1/tenants') });
    const tenantId = tenant.tenant?.id ?? tenant.id;
    await call(app, 'POST', `/admin/v1/tenants/${tenantId}/templates`, 201, { ...operator, payload: example('POST /admin/v1/tenants/{id}/templates') });
    const { body: apiKey } = await call(app, 'POST', `/admin/v1/tenants/${tenantId}/api-keys`, 201, operator);
    const { body: sent } = await call(app, 'POST', '/api/messages/send', 200, { token: apiKey.api_key, payload: example('POST /api/messages/send') });
    expect(sent).toMatchObject({ status: 'queued' });
  });
});
