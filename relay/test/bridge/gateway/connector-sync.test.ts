// Sync batches over a real socket: vouchers, masters, deletions and report snapshots land through the
// bridge's pulled-data store and are confirmed with sync.ack carrying the cursor; the confirmed cursors
// come back in the next welcome; a resent batch changes nothing; a batch for a company not paired with
// this connector is refused with an error naming the batch.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, describeOnDatabases, startRelay, type TestRelay } from '@ledgerwire/test-kit';
import { TestConnector } from '../../helpers/test-connector.js';
import { createAttachedCompany, createTenant, pairFromConnector, type Tenant } from './gateway-fixtures.js';

function voucher(guid: string, alterId: string, number: string) {
  return {
    guid,
    alter_id: alterId,
    master_id: alterId,
    voucher_type: 'Tax Invoice',
    reserved_name: 'Sales',
    voucher_number: number,
    voucher_date: '20260402',
    party_ledger: 'Customer A',
    ledger_entries: [
      { ledger: 'Customer A', amount: '-118.00' },
      { ledger: 'Sales', amount: '118.00' },
    ],
    bill_allocations: [{ name: number, bill_type: 'New Ref', amount: '-118.00' }],
  };
}

describeOnDatabases('connector sync batches', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  let baseUrl: string;
  let credential: string;
  const open: TestConnector[] = [];

  beforeEach(async () => {
    relay = await startRelay({ database: kind, env: { RELAY_WORKERS: '0' } });
    baseUrl = await relay.app.listen({ port: 0, host: '127.0.0.1' });
    tenant = await createTenant(relay.app);
    ({ credential } = await TestConnector.enroll(relay.app, { token: tenant.customerToken, machineName: 'BACK-OFFICE' }));
    await pairFromConnector(relay.app, credential, tenant.companyId);
  });
  afterEach(async () => {
    for (const connector of open.splice(0)) if (connector.isOpen) await connector.close();
    await relay.close();
  });

  const connect = async () => {
    const connector = await TestConnector.connect(baseUrl, credential);
    open.push(connector);
    return connector;
  };
  const pulledVouchers = async () =>
    (await call(relay.app, 'GET', `/api/v1/pulled-vouchers?company_id=${tenant.companyId}`, 200, { token: tenant.apiKey })).body.invoices as {
      books_voucher_guid: string;
      voucher_number: string;
      voucher_kind: string;
    }[];

  it('stores vouchers and confirms the cursor; a resent batch changes nothing', async () => {
    const connector = await connect();
    expect((await connector.hello()).sync_cursors).toEqual([]);
    const batch = { batch_id: 'b-1', company_id: tenant.companyId, kind: 'vouchers' as const, cursor: '102', items: [voucher('v-1', '101', 'S/1'), voucher('v-2', '102', 'S/2')] };
    const ack = await connector.syncBatch(batch);
    expect(ack).toEqual({ type: 'sync.ack', v: 1, batch_id: 'b-1', company_id: tenant.companyId, kind: 'vouchers', cursor: '102', accepted: 2 });

    const listed = await pulledVouchers();
    expect(listed.map((v) => v.books_voucher_guid).sort()).toEqual(['v-1', 'v-2']);
    expect(listed.every((v) => v.voucher_kind === 'sales')).toBe(true);

    expect((await connector.syncBatch({ ...batch, batch_id: 'b-1-again' })).type).toBe('sync.ack');
    expect(await pulledVouchers()).toHaveLength(2);
  });

  it('stores masters, deletions and report snapshots, and returns the confirmed cursors in the next welcome', async () => {
    const connector = await connect();
    await connector.hello();
    await connector.syncBatch({ batch_id: 'v', company_id: tenant.companyId, kind: 'vouchers', cursor: '7', items: [voucher('v-9', '7', 'S/9')] });
    const masters = await connector.syncBatch({
      batch_id: 'm',
      company_id: tenant.companyId,
      kind: 'masters',
      cursor: '55',
      items: [{ guid: 'led-1', alter_id: '55', master_id: '12', master_type: 'ledger', name: 'Customer A ', aliases: [], fields: { parent: 'Sundry Debtors', is_billwise: 'Yes' } }],
    });
    expect(masters).toMatchObject({ type: 'sync.ack', cursor: '55', accepted: 1 });
    const report = await connector.syncBatch({ batch_id: 'r', company_id: tenant.companyId, kind: 'report', cursor: 'stock@2026-04-02', items: [{ key: 'stock', rows: [{ item: 'Widget', closing_quantity: '4 Nos' }] }] });
    expect(report).toMatchObject({ type: 'sync.ack', accepted: 1 });
    const deletions = await connector.syncBatch({ batch_id: 'd', company_id: tenant.companyId, kind: 'deletions', cursor: 'guids@2026-04-02', items: [{ object: 'voucher', guid: 'v-9' }] });
    expect(deletions).toMatchObject({ type: 'sync.ack', accepted: 1 });

    const db = relay.app.database.db;
    const master = await db.selectFrom('pulled_masters').selectAll().where('books_master_guid', '=', 'led-1').executeTakeFirstOrThrow();
    expect(master).toMatchObject({ company_id: tenant.companyId, name: 'Customer A ', master_type: 'ledger' });
    const snapshot = await db.selectFrom('report_snapshots').selectAll().where('company_id', '=', tenant.companyId).executeTakeFirstOrThrow();
    expect(snapshot).toMatchObject({ report_key: 'stock', row_count: 1 });
    expect(await pulledVouchers()).toEqual([]);

    await connector.close();
    const again = await connect();
    const welcome = await again.hello();
    expect(welcome.sync_cursors).toEqual([
      { company_id: tenant.companyId, kind: 'deletions', cursor: 'guids@2026-04-02' },
      { company_id: tenant.companyId, kind: 'masters', cursor: '55' },
      { company_id: tenant.companyId, kind: 'report', cursor: 'stock@2026-04-02' },
      { company_id: tenant.companyId, kind: 'vouchers', cursor: '7' },
    ]);
  });

  it('refuses a batch for a company not paired with this connector, and nothing lands', async () => {
    const unpaired = await createAttachedCompany(relay.app, tenant.apiKey, tenant.customerId, 'Not paired');
    const connector = await connect();
    await connector.hello();
    const answer = await connector.syncBatch({ batch_id: 'x-1', company_id: unpaired, kind: 'vouchers', cursor: '1', items: [voucher('v-x', '1', 'X/1')] });
    expect(answer).toMatchObject({ type: 'error', code: 'company_not_paired', ref: 'x-1' });
    const stored = await relay.app.database.db.selectFrom('pulled_vouchers').select('id').where('books_voucher_guid', '=', 'v-x').execute();
    expect(stored).toEqual([]);
  });
});
