// The books ids of a completed transaction as its reader sees them: books_alter_id (and a missing
// books_master_id) from the voucher the sync pulled with the job's GUID, following edits in the books;
// a master job's ids from the pulled master of its company, type and exact name. On every read path:
// by job id, by own id, the company's list, the masters list and status, the connector's jobs.
import type { SyncMasterItem, SyncVoucherItem } from '@ledgerwire/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnDatabases, type TestRelay } from '@ledgerwire/test-kit';
import { api, pairWithConnector, provisionTenant, sampleInvoice, startBridgeRelay, type Tenant } from './bridge-test-kit.js';

function pulledVoucher(guid: string, alterId: string, masterId = '41'): SyncVoucherItem {
  return {
    guid,
    alter_id: alterId,
    master_id: masterId,
    voucher_type: 'Sales',
    reserved_name: 'Sales',
    voucher_number: 'INV-001',
    voucher_date: '20250401',
    party_ledger: 'Acme Retail',
    ledger_entries: [{ ledger: 'Acme Retail', amount: '-1180.00' }],
  };
}

function pulledMaster(guid: string, name: string, masterId: string, alterId: string, type: SyncMasterItem['master_type'] = 'ledger'): SyncMasterItem {
  return { guid, alter_id: alterId, master_id: masterId, master_type: type, name, aliases: [], fields: { parent: 'Sundry Debtors' } };
}

describeOnDatabases('bridge transaction books ids', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  let connectorId: string;
  const read = async (job: string) => (await api(relay, tenant.credential, 'GET', `/api/v1/transactions/${encodeURIComponent(job)}`, 200)).body.transaction;
  const listed = async (job: string) => {
    const { body } = await api(relay, tenant.credential, 'GET', `/api/v1/transactions?company_id=${tenant.companyId}`, 200);
    return body.transactions.find((t: any) => t.job_id === job);
  };

  /** Submits a write and has the tenant's connector complete it with `outcome`; returns the job id. */
  async function completed(path: string, payload: unknown, outcome: { books_voucher_guid?: string; books_master_id?: string; books_alter_id?: string }) {
    const { body } = await api(relay, tenant.credential, 'POST', `/api/v1/${path}?company_id=${tenant.companyId}`, 200, { payload });
    const queue = relay.app.bridge.jobQueue;
    expect((await queue.claimForConnector(connectorId, { limit: 1, leaseMs: 60_000 })).map((job) => job.job_id)).toEqual([body.transaction_id]);
    expect(await queue.complete(body.transaction_id, connectorId, outcome)).toBe(true);
    return body.transaction_id as string;
  }

  beforeAll(async () => {
    relay = await startBridgeRelay(kind);
    tenant = await provisionTenant(relay);
    connectorId = await pairWithConnector(relay, tenant);
  });
  afterAll(() => relay.close());

  it('a completed voucher shows the pulled alter id once the sync brings it, and the new one after an edit in the books', async () => {
    const jobId = await completed('invoices', { ...sampleInvoice, transaction_id: 'erp-inv-ids-1' }, { books_voucher_guid: 'vg-ids-1', books_master_id: '41' });
    expect(await read(jobId)).toMatchObject({ status: 'completed', books_voucher_guid: 'vg-ids-1', books_master_id: '41', books_alter_id: null });

    const store = relay.app.bridge.pulledData;
    await store.upsertVouchers(tenant.companyId, [pulledVoucher('vg-ids-1', '7')]);
    expect(await read(jobId)).toMatchObject({ books_master_id: '41', books_alter_id: '7' });
    expect(await read('erp-inv-ids-1')).toMatchObject({ job_id: jobId, books_alter_id: '7' });
    expect(await listed(jobId)).toMatchObject({ books_voucher_guid: 'vg-ids-1', books_alter_id: '7' });

    await store.upsertVouchers(tenant.companyId, [pulledVoucher('vg-ids-1', '12')]);
    expect(await read(jobId)).toMatchObject({ books_master_id: '41', books_alter_id: '12' });
    expect(await listed(jobId)).toMatchObject({ books_alter_id: '12' });
    const { body: jobs } = await api(relay, tenant.credential, 'GET', `/api/v1/connectors/${connectorId}/jobs`, 200);
    expect(jobs.jobs.find((t: any) => t.job_id === jobId)).toMatchObject({ books_alter_id: '12' });
  });

  it('a voucher completed without a master id takes the pulled one; stored ids stay, an older pulled alter id does not replace a newer one', async () => {
    const bare = await completed('invoices', sampleInvoice, { books_voucher_guid: 'vg-ids-2' });
    const reported = await completed('invoices', sampleInvoice, { books_voucher_guid: 'vg-ids-3', books_master_id: '43', books_alter_id: '9' });
    const store = relay.app.bridge.pulledData;
    await store.upsertVouchers(tenant.companyId, [pulledVoucher('vg-ids-2', '3', '42'), pulledVoucher('vg-ids-3', '5', '99')]);
    expect(await read(bare)).toMatchObject({ books_master_id: '42', books_alter_id: '3' });
    expect(await read(reported)).toMatchObject({ books_master_id: '43', books_alter_id: '9' });
    await store.upsertVouchers(tenant.companyId, [pulledVoucher('vg-ids-3', '10', '99')]);
    expect(await read(reported)).toMatchObject({ books_master_id: '43', books_alter_id: '10' });
  });

  it('only the same company’s pulled voucher counts, and only for a completed job', async () => {
    const jobId = await completed('invoices', sampleInvoice, { books_voucher_guid: 'vg-ids-shared' });
    const other = await provisionTenant(relay, { name: 'Other Books' });
    await relay.app.bridge.pulledData.upsertVouchers(other.companyId, [pulledVoucher('vg-ids-shared', '30', '77')]);
    expect(await read(jobId)).toMatchObject({ books_master_id: null, books_alter_id: null });

    // A failed job shows no GUID and no ids, whatever the books hold under the GUID it once targeted.
    const { body } = await api(relay, tenant.credential, 'POST', `/api/v1/invoices?company_id=${tenant.companyId}`, 200, {
      payload: { ...sampleInvoice, books_voucher_guid: 'vg-ids-1' },
    });
    const queue = relay.app.bridge.jobQueue;
    await queue.claimForConnector(connectorId, { limit: 1, leaseMs: 60_000 });
    expect(await read(body.transaction_id)).toMatchObject({ status: 'processing', books_master_id: null, books_alter_id: null });
    await queue.fail(body.transaction_id, connectorId, { error_code: 'BOOKS_IMPORT_FAILED', error_label: 'Import failed', error_message: 'Ledger missing' });
    expect(await read(body.transaction_id)).toMatchObject({ status: 'failed', books_voucher_guid: null, books_master_id: null, books_alter_id: null });
  });

  it('a completed master job shows the ids of the pulled master with its company, type and exact name', async () => {
    const name = 'Beta Stores ';
    const jobId = await completed('masters/ledger', { name, parent: 'Sundry Debtors', transaction_id: 'erp-ledger-ids' }, {});
    expect(await read(jobId)).toMatchObject({ job_type: 'master', status: 'completed', books_master_id: null, books_alter_id: null });

    const store = relay.app.bridge.pulledData;
    // Near misses: no trailing space, other case, same name as a group.
    await store.upsertMasters(tenant.companyId, [
      pulledMaster('m-trim', 'Beta Stores', '900', '1'),
      pulledMaster('m-case', 'beta stores ', '901', '1'),
      pulledMaster('m-group', name, '902', '1', 'group'),
    ]);
    expect(await read(jobId)).toMatchObject({ books_master_id: null, books_alter_id: null });

    await store.upsertMasters(tenant.companyId, [pulledMaster('m-exact', name, '903', '2')]);
    expect(await read(jobId)).toMatchObject({ books_master_id: '903', books_alter_id: '2' });
    const { body: status } = await api(relay, tenant.credential, 'GET', '/api/v1/masters/ledger/erp-ledger-ids', 200);
    expect(status.transaction).toMatchObject({ books_master_id: '903', books_alter_id: '2' });

    await store.upsertMasters(tenant.companyId, [pulledMaster('m-exact', name, '903', '5')]);
    expect(await read(jobId)).toMatchObject({ books_master_id: '903', books_alter_id: '5' });
    const { body: list } = await api(relay, tenant.credential, 'GET', `/api/v1/masters/ledger?company_id=${tenant.companyId}`, 200);
    expect(list.transactions.find((t: any) => t.job_id === jobId)).toMatchObject({ books_master_id: '903', books_alter_id: '5' });
  });

  it('a master job that completed with its master id keeps it, and follows that master through a rename', async () => {
    const jobId = await completed('masters/ledger', { name: 'Gamma Traders', parent: 'Sundry Debtors' }, { books_master_id: '950' });
    const store = relay.app.bridge.pulledData;
    await store.upsertMasters(tenant.companyId, [pulledMaster('m-gamma', 'Gamma Traders', '950', '1')]);
    expect(await read(jobId)).toMatchObject({ books_master_id: '950', books_alter_id: '1' });
    // Renamed in the books (its id stays), and a new master takes the old name: the job's master is the renamed one.
    await store.upsertMasters(tenant.companyId, [pulledMaster('m-gamma', 'Gamma Traders Pvt Ltd', '950', '4'), pulledMaster('m-gamma-2', 'Gamma Traders', '960', '1')]);
    expect(await read(jobId)).toMatchObject({ books_master_id: '950', books_alter_id: '4' });
  });

  it('a list page reads every row’s ids right, mixing kinds and companies’ lookalikes', async () => {
    const store = relay.app.bridge.pulledData;
    const jobs: string[] = [];
    for (let i = 0; i < 6; i++) jobs.push(await completed('invoices', sampleInvoice, { books_voucher_guid: `vg-page-${i}` }));
    await store.upsertVouchers(tenant.companyId, jobs.map((_, i) => pulledVoucher(`vg-page-${i}`, String(100 + i), String(200 + i))));
    const { body } = await api(relay, tenant.credential, 'GET', `/api/v1/transactions?company_id=${tenant.companyId}&job_type=voucher&limit=6`, 200);
    expect(body.transactions.map((t: any) => [t.job_id, t.books_master_id, t.books_alter_id])).toEqual(
      jobs.map((job, i) => [job, String(200 + i), String(100 + i)]).reverse(),
    );
  });
});
