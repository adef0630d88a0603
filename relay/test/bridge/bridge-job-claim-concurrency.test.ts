// Claims racing for one connector never hand out two jobs of one company at once, nor one job twice:
// on PostgreSQL from two relay processes' pools (SKIP LOCKED on the company rows), on SQLite from
// one process (its single writer serialises the claim transactions).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { JobQueue } from '../../src/bridge/services/jobs/job-queue.js';
import { openDatabase, type RelayDatabase } from '../../src/db/database.js';
import { describeOnDatabases, type TestRelay } from '@ledgerwire/test-kit';
import { admin, api, pairWithConnector, provisionTenant, sampleInvoice, startBridgeRelay, type Tenant } from './bridge-test-kit.js';

describeOnDatabases('bridge job claims under concurrency', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  let connectorId: string;
  let secondProcess: RelayDatabase | undefined;
  const companyIds: number[] = [];

  beforeAll(async () => {
    relay = await startBridgeRelay(kind);
    tenant = await provisionTenant(relay);
    connectorId = await pairWithConnector(relay, tenant, 'guid-0');
    companyIds.push(tenant.companyId);
    for (let i = 1; i < 4; i++) {
      const { body } = await api(relay, tenant.credential, 'POST', '/api/v1/companies', 200, { payload: { name: `Books ${i}`, customer_id: tenant.customerId } });
      await admin(relay, 'POST', `/admin/v1/companies/${body.company_id}/pair`, 200, { connector_id: connectorId, books_company_guid: `guid-${i}` });
      companyIds.push(body.company_id);
    }
    for (const companyId of companyIds) {
      for (let n = 0; n < 5; n++) {
        await api(relay, tenant.credential, 'POST', `/api/v1/invoices?company_id=${companyId}`, 200, { payload: { ...sampleInvoice, voucher_number: `C${companyId}-${n}` } });
      }
    }
    if (kind === 'postgres') secondProcess = openDatabase(relay.config.database);
  });
  afterAll(async () => {
    await secondProcess?.destroy();
    await relay.close();
  });

  it('gives each company’s queued run to one claimer only, in FIFO order, while claims race', async () => {
    const first = relay.app.database;
    const queues = [first, secondProcess ?? first].map((database) => new JobQueue({ db: database.db, capabilities: database.capabilities }));
    const handed: { job_id: string; company_id: number; voucher: string }[] = [];
    for (let round = 0; round < 20 && handed.length < companyIds.length * 5; round++) {
      const claims = await Promise.all(queues.flatMap((queue) => [queue, queue].map((q) => q.claimForConnector(connectorId, { limit: 3, leaseMs: 60_000 }))));
      // Within a round: a company's jobs all come from one claim, and no job is handed twice.
      const claimerOf = new Map<number, number>();
      claims.forEach((jobs, claimer) => {
        for (const job of jobs) {
          expect(claimerOf.get(job.company_id) ?? claimer).toBe(claimer);
          claimerOf.set(job.company_id, claimer);
        }
      });
      const jobs = claims.flat();
      expect(new Set(jobs.map((j) => j.job_id)).size).toBe(jobs.length);
      for (const job of jobs) {
        const row = await first.db.selectFrom('transactions').select('payload').where('job_id', '=', job.job_id).executeTakeFirstOrThrow();
        handed.push({ job_id: job.job_id, company_id: job.company_id, voucher: JSON.parse(row.payload).voucher_number });
      }
      for (const job of jobs) expect(await queues[0]?.complete(job.job_id, connectorId, { books_voucher_guid: `g-${job.job_id}` })).toBe(true);
    }
    expect(new Set(handed.map((h) => h.job_id)).size).toBe(handed.length);
    expect(handed).toHaveLength(companyIds.length * 5);
    for (const companyId of companyIds) {
      expect(handed.filter((h) => h.company_id === companyId).map((h) => h.voucher)).toEqual([0, 1, 2, 3, 4].map((n) => `C${companyId}-${n}`));
    }
  });
});
