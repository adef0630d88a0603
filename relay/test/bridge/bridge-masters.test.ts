// Masters: creation jobs for all nine types (acceptance, list, status, completion with
// books_master_id), pulled masters (the list envelope, limit 200, an empty list without the
// capability or the company flag) and the stock-group tree.
import type { SyncMasterItem } from '@ledgerwire/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnDatabases, type TestRelay } from '@ledgerwire/test-kit';
import { admin, api, createKey, pairWithConnector, provisionTenant, startBridgeRelay, type Tenant } from './bridge-test-kit.js';

const CREATE_BODIES: Record<string, Record<string, unknown>> = {
  group: { name: 'Online Debtors', parent: 'Sundry Debtors', is_billwise: 'Yes' },
  ledger: { name: 'Acme Retail', parent: 'Sundry Debtors', gstin: '29ABCDE1234F1Z5', is_billwise: 'Yes', aliases: ['Acme'] },
  currency: { name: '$', mailing_name: 'US Dollar', iso_code: 'USD', decimal_places: 2 },
  unit: { name: 'Nos', original_name: 'Numbers', decimal_places: 0 },
  godown: { name: 'Warehouse 2' },
  stock_group: { name: 'Electronics' },
  stock_category: { name: 'Imported' },
  stock_item: { name: 'Widget', parent: 'Electronics', base_units: 'Nos' },
  voucher_type: { name: 'Tax Invoice', parent: 'Sales' },
};

function master(guid: string, type: SyncMasterItem['master_type'], name: string, fields: Record<string, unknown> = {}, alter = '1'): SyncMasterItem {
  return { guid, alter_id: alter, master_id: guid.replace(/\D/g, '') || '1', master_type: type, name, aliases: [], fields };
}

describeOnDatabases('bridge masters', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  let connectorId: string;

  beforeAll(async () => {
    relay = await startBridgeRelay(kind);
    tenant = await provisionTenant(relay, { capabilities: ['pull.master'] });
    connectorId = await pairWithConnector(relay, tenant);
    const ledgers = Array.from({ length: 205 }, (_, i) => master(`led-${i}`, 'ledger', `Ledger ${String(i).padStart(3, '0')}`, { parent: 'Sundry Debtors', is_billwise: 'No' }));
    await relay.app.bridge.pulledData.upsertMasters(tenant.companyId, [
      ...ledgers,
      { ...master('grp-1', 'group', 'Sundry Debtors', { parent: 'Current Assets', is_billwise: 'Yes' }), aliases: ['Debtors'] },
      master('sg-1', 'stock_group', 'Electronics', { parent: 'Primary', closing_balance: '10 Nos', closing_value: '1000.00' }),
      master('sg-2', 'stock_group', 'Phones', { parent: 'Electronics' }),
      master('si-1', 'stock_item', 'Widget', { parent: 'Electronics', closing_balance: '4 Nos' }),
      master('si-2', 'stock_item', 'Pixel', { parent: 'Phones' }),
      master('si-3', 'stock_item', 'Loose Screw', { parent: 'Primary' }),
    ]);
  });
  afterAll(() => relay.close());

  it.each(Object.keys(CREATE_BODIES))('POST /api/v1/masters/%s queues a master job and GET shows its status', async (type) => {
    const { body } = await api(relay, tenant.credential, 'POST', `/api/v1/masters/${type}?company_id=${tenant.companyId}`, 200, { payload: CREATE_BODIES[type] });
    expect(body).toEqual({ success: true, transaction_id: expect.any(String), job_id: body.transaction_id, company_id: tenant.companyId, request_type: 'in' });
    const { body: status } = await api(relay, tenant.credential, 'GET', `/api/v1/masters/${type}/${body.transaction_id}`, 200);
    expect(status.transaction).toMatchObject({ job_id: body.transaction_id, job_type: 'master', event_type: `${type}.create`, status: 'queued', payload: { master_type: type, name: CREATE_BODIES[type]?.['name'] } });
    const { body: list } = await api(relay, tenant.credential, 'GET', `/api/v1/masters/${type}?company_id=${tenant.companyId}`, 200);
    expect(list).toMatchObject({ success: true, master_type: type, company_id: tenant.companyId, total: 1, count: 1 });
    expect(list.transactions[0].job_id).toBe(body.transaction_id);
  });

  it('a master job completes with books_master_id; status by own id; wrong type is 404; bad bodies are 400', async () => {
    const { body } = await api(relay, tenant.credential, 'POST', `/api/v1/masters/ledger?company_id=${tenant.companyId}`, 200, {
      payload: { name: 'Beta Stores', parent: 'Sundry Debtors', transaction_id: 'erp-ledger-9' },
    });
    const queue = relay.app.bridge.jobQueue;
    let done = false;
    for (let i = 0; i < 20 && !done; i++) {
      const [job] = await queue.claimForConnector(connectorId, { limit: 1, leaseMs: 60_000 });
      if (!job) break;
      if (job.job_id === body.transaction_id) {
        expect(job.xml).toContain('Beta Stores');
        done = await queue.complete(job.job_id, connectorId, { books_master_id: '812', books_alter_id: '3' });
      } else await queue.complete(job.job_id, connectorId, { books_master_id: '1' });
    }
    expect(done).toBe(true);
    const { body: status } = await api(relay, tenant.credential, 'GET', '/api/v1/masters/ledger/erp-ledger-9', 200);
    expect(status.transaction).toMatchObject({ transaction_id: 'erp-ledger-9', status: 'completed', books_master_id: '812', books_alter_id: '3' });
    await api(relay, tenant.credential, 'GET', `/api/v1/masters/group/${body.transaction_id}`, 404);
    await api(relay, tenant.credential, 'POST', `/api/v1/masters/ledger?company_id=${tenant.companyId}`, 400, { payload: { name: 'No Parent' } });
    await api(relay, tenant.credential, 'POST', `/api/v1/masters/ledger?company_id=${tenant.companyId}`, 400, { payload: { name: 'X', parent: 'Y', is_billwise: 'perhaps' } });
    await api(relay, tenant.credential, 'POST', `/api/v1/masters/planet?company_id=${tenant.companyId}`, 404, { payload: { name: 'X' } });
    await api(relay, tenant.credential, 'GET', `/api/v1/masters/planet?company_id=${tenant.companyId}`, 400);
  });

  it('pulled masters come in the list envelope; an empty list until the company’s masters pull is on', async () => {
    const url = `/api/v1/pulled-masters/group?company_id=${tenant.companyId}`;
    const { body: off } = await api(relay, tenant.credential, 'GET', url, 200);
    expect(off).toEqual({ success: true, master_type: 'group', total: 0, count: 0, masters: [] });

    await admin(relay, 'PATCH', `/admin/v1/companies/${tenant.companyId}`, 200, { pull_masters: true });
    const { body } = await api(relay, tenant.credential, 'GET', url, 200);
    expect(body).toEqual({
      success: true,
      master_type: 'group',
      total: 1,
      count: 1,
      masters: [
        {
          master_type: 'group',
          master_name: 'Sundry Debtors',
          books_master_guid: 'grp-1',
          request_type: 'pull',
          payload: {
            kind: 'master',
            master_type: 'group',
            name: 'Sundry Debtors',
            aliases: ['Debtors'],
            fields: { parent: 'Current Assets', is_billwise: 'Yes' },
            books: { guid: 'grp-1', master_id: '1', alter_id: '1' },
          },
          updated_at: expect.any(String),
        },
      ],
    });
  });

  it('limit is at most 200 (more is 422); offset pages', async () => {
    const url = `/api/v1/pulled-masters/ledger?company_id=${tenant.companyId}`;
    const { body: max } = await api(relay, tenant.credential, 'GET', `${url}&limit=200`, 200);
    expect(max).toMatchObject({ total: 205, count: 200 });
    const { body: rest } = await api(relay, tenant.credential, 'GET', `${url}&limit=200&offset=200`, 200);
    expect(rest.masters.map((m: any) => m.master_name)).toEqual(['Ledger 200', 'Ledger 201', 'Ledger 202', 'Ledger 203', 'Ledger 204']);
    const { body: refused } = await api(relay, tenant.credential, 'GET', `${url}&limit=201`, 422);
    expect(refused.error).toMatchObject({ code: 'validation_failed', details: [{ field: 'limit', message: expect.stringContaining('200') }] });
    await api(relay, tenant.credential, 'GET', `${url}&limit=ten`, 400);
    await api(relay, tenant.credential, 'GET', '/api/v1/pulled-masters/ledger', 400);
    await api(relay, tenant.credential, 'GET', `/api/v1/pulled-masters/planet?company_id=${tenant.companyId}`, 400);
  });

  it('without the pull.master capability the answer is an empty list, not an error', async () => {
    const plain = await createKey(relay, tenant.applicationId, ['report.stock']);
    const { body } = await api(relay, plain.credential, 'GET', `/api/v1/pulled-masters/ledger?company_id=${tenant.companyId}`, 200);
    expect(body).toEqual({ success: true, master_type: 'ledger', total: 0, count: 0, masters: [] });
    const { body: tree } = await api(relay, plain.credential, 'GET', `/api/v1/stock-tree?company_id=${tenant.companyId}`, 200);
    expect(tree).toEqual({ success: true, company_id: tenant.companyId, stock_groups: [], ungrouped_items: [] });
  });

  it('a master deleted in the books leaves the list', async () => {
    await relay.app.bridge.pulledData.markMastersDeleted(tenant.companyId, ['led-0']);
    const { body } = await api(relay, tenant.credential, 'GET', `/api/v1/pulled-masters/ledger?company_id=${tenant.companyId}&limit=1`, 200);
    expect(body).toMatchObject({ total: 204, masters: [{ master_name: 'Ledger 001' }] });
  });

  it('stock-tree nests groups and hangs items from their group', async () => {
    const { body } = await api(relay, tenant.credential, 'GET', `/api/v1/stock-tree?company_id=${tenant.companyId}`, 200);
    expect(body).toEqual({
      success: true,
      company_id: tenant.companyId,
      stock_groups: [
        {
          name: 'Electronics',
          books_master_guid: 'sg-1',
          closing_balance: '10 Nos',
          closing_value: '1000.00',
          stock_items: [{ name: 'Widget', books_master_guid: 'si-1', closing_balance: '4 Nos', closing_value: null }],
          children: [
            { name: 'Phones', books_master_guid: 'sg-2', closing_balance: null, closing_value: null, stock_items: [{ name: 'Pixel', books_master_guid: 'si-2', closing_balance: null, closing_value: null }], children: [] },
          ],
        },
      ],
      ungrouped_items: [{ name: 'Loose Screw', books_master_guid: 'si-3', closing_balance: null, closing_value: null }],
    });
  });

  it('keeps a master name and parent as long as the books have them, verbatim', async () => {
    const other = await provisionTenant(relay, { name: 'Long Masters', capabilities: ['pull.master'] });
    await admin(relay, 'PATCH', `/admin/v1/companies/${other.companyId}`, 200, { pull_masters: true });
    const name = `Ram & Sons ${'R'.repeat(450)} `;
    const parent = `Sundry Debtors ${'D'.repeat(420)}`;
    await relay.app.bridge.pulledData.upsertMasters(other.companyId, [master('long-9', 'ledger', name, { parent })]);
    const { body } = await api(relay, other.credential, 'GET', `/api/v1/pulled-masters/ledger?company_id=${other.companyId}`, 200);
    expect(body.masters).toEqual([expect.objectContaining({ master_name: name, payload: expect.objectContaining({ name, fields: expect.objectContaining({ parent }) }) })]);
  });
});
