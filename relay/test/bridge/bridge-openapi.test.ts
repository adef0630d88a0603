// The OpenAPI document at /docs/json lists every endpoint of the bridge contract with its schemas,
// and is a valid OpenAPI 3 document.
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeOnDatabases, type TestRelay } from '@ledgerwire/test-kit';
import { startBridgeRelay } from './bridge-test-kit.js';

const CONTRACT: [string, string][] = [
  ['get', '/api/v1/ping'],
  ['get', '/api/v1/customers'],
  ['post', '/api/v1/customers'],
  ['post', '/api/v1/customers/{token}/rotate'],
  ['get', '/api/v1/companies'],
  ['post', '/api/v1/companies'],
  ['post', '/api/v1/companies/{id}/customer'],
  ['delete', '/api/v1/companies/{id}/customer'],
  ['post', '/api/v1/companies/{id}/disconnect'],
  ['get', '/api/v1/companies/{id}/health'],
  ['get', '/api/v1/connectors/{machine}/jobs'],
  ...['invoices', 'orders', 'credit-notes', 'debit-notes', 'purchases', 'receipts', 'payments', 'contras', 'journals'].map((p) => ['post', `/api/v1/${p}`] as [string, string]),
  ['get', '/api/v1/transactions/{job}'],
  ['get', '/api/v1/transactions'],
  ['get', '/api/v1/pulled-vouchers'],
  ['get', '/api/v1/pulled-vouchers/{transaction_id}'],
  ['post', '/api/v1/pulled-vouchers/ack'],
  ['get', '/api/v1/pulled-vouchers/statistics'],
  ...['group', 'ledger', 'currency', 'unit', 'godown', 'stock_group', 'stock_category', 'stock_item', 'voucher_type'].map((t) => ['post', `/api/v1/masters/${t}`] as [string, string]),
  ['get', '/api/v1/masters/{type}'],
  ['get', '/api/v1/masters/{type}/{job}'],
  ['get', '/api/v1/pulled-masters/{type}'],
  ['get', '/api/v1/stock-tree'],
  ['get', '/api/v1/webhooks'],
  ['post', '/api/v1/webhooks'],
  ['get', '/api/v1/webhooks/{id}'],
  ['patch', '/api/v1/webhooks/{id}'],
  ['delete', '/api/v1/webhooks/{id}'],
  ['post', '/api/v1/webhooks/{id}/rotate-secret'],
  ['post', '/api/v1/webhooks/{id}/test'],
  ['get', '/api/v1/webhooks/{id}/deliveries'],
  ['post', '/admin/v1/applications'],
  ['post', '/admin/v1/applications/{id}/keys'],
  ['delete', '/admin/v1/keys/{key_id}'],
  ['patch', '/admin/v1/companies/{id}'],
  ['post', '/admin/v1/companies/{id}/pair'],
  ['get', '/admin/v1/connectors'],
  ['get', '/admin/v1/transactions/{id}'],
];

describeOnDatabases('bridge OpenAPI document', (kind) => {
  let relay: TestRelay;

  beforeAll(async () => {
    relay = await startBridgeRelay(kind);
  });
  afterAll(() => relay.close());

  it('documents every bridge endpoint with its body and answer schemas', async () => {
    const { body: document } = await call(relay.app, 'GET', '/docs/json', 200);
    for (const [method, path] of CONTRACT) {
      const operation = document.paths?.[path]?.[method];
      expect(operation, `${method.toUpperCase()} ${path} missing from /docs/json`).toBeDefined();
      expect(operation.responses?.['200'] ?? operation.responses?.['201'], `${method} ${path} has no success schema`).toBeDefined();
      if (['post', 'patch'].includes(method) && !path.endsWith('/rotate') && !/(disconnect|rotate-secret|test)$/.test(path)) {
        expect(operation.requestBody, `${method} ${path} has no body schema`).toBeDefined();
      }
    }
    await SwaggerParser.validate(structuredClone(document));
    const resolved: any = await SwaggerParser.dereference(structuredClone(document));
    const write = resolved.paths['/api/v1/invoices'].post;
    expect(Object.keys(write.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['voucher_number', 'voucher_type', 'party_ledger', 'date', 'ledger_entries', 'inventory_entries', 'transaction_id', 'books_voucher_guid']),
    );
    expect(write.security).toEqual([{ bridgeCredential: [] }]);
    const list = resolved.paths['/api/v1/pulled-vouchers'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(list.properties)).toContain('invoices');
  });
});
