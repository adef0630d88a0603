// One owner of a job's XML (relay/src/bridge/services/jobs/render-job-xml.ts): what a write stores at acceptance
// is exactly what renderJobXml renders from the stored job, for a voucher, a master and a cancel; and a
// job claimed after its company's books name changed carries renderJobXml's XML for the new name.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { renderJobXml, type JobXmlSource } from '../../src/bridge/services/jobs/render-job-xml.js';
import { describeOnDatabases, type TestRelay } from '@ledgerwire/test-kit';
import { api, pairWithConnector, provisionTenant, sampleInvoice, startBridgeRelay, type Tenant } from './bridge-test-kit.js';

describeOnDatabases('a job’s XML has one owner', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  let connectorId: string;
  const url = (path: string) => `/api/v1/${path}?company_id=${tenant.companyId}`;

  async function storedJob(jobId: string): Promise<JobXmlSource & { xml: string; xml_company_name: string }> {
    return relay.app.database.db
      .selectFrom('transactions')
      .innerJoin('transaction_documents', 'transaction_documents.transaction_id', 'transactions.id')
      .select(['job_type', 'job_id', 'target_voucher_guid', 'payload', 'master_type', 'document', 'xml', 'xml_company_name'])
      .where('job_id', '=', jobId)
      .executeTakeFirstOrThrow();
  }

  beforeAll(async () => {
    relay = await startBridgeRelay(kind, { RELAY_WORKERS: '0' });
    tenant = await provisionTenant(relay);
    connectorId = await pairWithConnector(relay, tenant);
  });
  afterAll(() => relay.close());

  it('stores at acceptance what renderJobXml renders from the stored voucher, master and cancel jobs', async () => {
    const invoice = (await api(relay, tenant.credential, 'POST', url('invoices'), 200, { payload: { ...sampleInvoice, transaction_id: 'xml-inv-1' } })).body.transaction_id;
    const queue = relay.app.bridge.jobQueue;
    expect((await queue.claimForConnector(connectorId, { limit: 1, leaseMs: 60_000 })).map((job) => job.job_id)).toEqual([invoice]);
    expect(await queue.complete(invoice, connectorId, { books_voucher_guid: 'guid-voucher-xml-1', books_master_id: '77' })).toBe(true);
    const cancel = (await api(relay, tenant.credential, 'POST', url('vouchers/guid-voucher-xml-1/cancel'), 200, { payload: { narration: 'Voided' } })).body.transaction_id;
    const ledger = (await api(relay, tenant.credential, 'POST', url('masters/ledger'), 200, { payload: { name: 'Acme Retail', parent: 'Sundry Debtors' } })).body.transaction_id;

    for (const jobId of [invoice, cancel, ledger]) {
      const job = await storedJob(jobId);
      expect(job.xml.length).toBeGreaterThan(100);
      expect(renderJobXml(job, job.xml_company_name)).toBe(job.xml);
    }
  });

  it('a job claimed after the books company was renamed carries renderJobXml’s XML for the new name', async () => {
    // A company of its own, so no job of the first test is ahead of this one in the queue.
    const other = await provisionTenant(relay, { name: 'Renamed Books Co' });
    const otherConnector = await pairWithConnector(relay, other, 'guid-books-company-2');
    const jobId = (await api(relay, other.credential, 'POST', `/api/v1/masters/godown?company_id=${other.companyId}`, 200, { payload: { name: 'Warehouse 9' } })).body
      .transaction_id;
    await relay.app.database.db.updateTable('companies').set({ books_company_name: 'Sharma Traders 2025-26' }).where('id', '=', other.companyId).execute();
    const [claimed] = await relay.app.bridge.jobQueue.claimForConnector(otherConnector, { limit: 1, leaseMs: 60_000 });
    expect(claimed?.job_id).toBe(jobId);
    const job = await storedJob(jobId);
    expect(claimed?.xml).toBe(renderJobXml(job, 'Sharma Traders 2025-26'));
    expect(claimed?.xml).toContain('Sharma Traders 2025-26');
    // Stored again under the name it was rendered for: the next claim of it need not render again.
    expect(job).toMatchObject({ xml: claimed?.xml, xml_company_name: 'Sharma Traders 2025-26' });
  });
});
