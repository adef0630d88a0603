// waiting_reason (issue 21, item 7): a queued or processing transaction says why it has not finished —
// company not paired, connector offline, books not running, company not open in the books, behind N
// earlier jobs of the company, or being imported — in the single read, the company list, the master
// job list, the connector's jobs and the operator's views; finished ones say null.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnDatabases, type TestRelay } from '@ledgerwire/test-kit';
import { companyQueueWaitingReasons } from '../../src/bridge/services/jobs/waiting-reason.js';
import { admin, api, pairWithConnector, provisionTenant, sampleInvoice, startBridgeRelay, type Tenant } from './bridge-test-kit.js';

const BOOKS_GUID = 'guid-waiting-books';

describeOnDatabases('bridge transaction waiting_reason', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  let counter = 0;

  const write = async () => {
    counter += 1;
    const { body } = await api(relay, tenant.credential, 'POST', `/api/v1/invoices?company_id=${tenant.companyId}`, 200, {
      payload: { ...sampleInvoice, voucher_number: `INV-W${counter}` },
    });
    return body.transaction_id as string;
  };
  const reasonOf = async (jobId: string) => (await api(relay, tenant.credential, 'GET', `/api/v1/transactions/${jobId}`, 200)).body.transaction.waiting_reason;
  const setConnector = (connectorId: string, state: { online?: number; connected?: number; books_running?: number; open_companies?: string }) =>
    relay.app.database.db.updateTable('connectors').set(state).where('id', '=', connectorId).execute();

  beforeAll(async () => {
    relay = await startBridgeRelay(kind);
    tenant = await provisionTenant(relay);
  });
  afterAll(async () => relay.close());

  it('says why each queued or processing write waits, and null once it has finished', async () => {
    const first = await write();
    expect(await reasonOf(first)).toEqual({
      code: 'company_disconnected',
      message: expect.stringContaining('not paired'),
      user_message: expect.stringContaining('install the Ledgerwire connector on the PC where TallyPrime runs'),
      fix_by: 'end_user',
    });

    const connectorId = await pairWithConnector(relay, tenant, BOOKS_GUID);
    const { machine_name: machine } = await relay.app.database.db.selectFrom('connectors').select('machine_name').where('id', '=', connectorId).executeTakeFirstOrThrow();
    const second = await write();
    const third = await write();
    // All clear: the first goes out next; the others wait their turn, counted.
    expect(await reasonOf(first)).toBeNull();
    expect(await reasonOf(second)).toEqual({
      code: 'behind_earlier_jobs',
      jobs_ahead: 1,
      message: expect.stringContaining('1 earlier job of this company'),
      user_message: '1 earlier entry goes into TallyPrime first; this one follows by itself. Nothing needs doing; if it stays like this for long, contact support.',
      fix_by: 'support',
    });
    expect(await reasonOf(third)).toMatchObject({ code: 'behind_earlier_jobs', jobs_ahead: 2, message: expect.stringContaining('2 earlier jobs'), user_message: expect.stringMatching(/^2 earlier entries go/) });

    // What blocks the company comes before the queue position.
    await setConnector(connectorId, { online: 0, connected: 0 });
    for (const job of [first, third]) {
      expect(await reasonOf(job)).toEqual({
        code: 'connector_offline',
        message: expect.stringContaining(`"${machine}"`),
        user_message: `The Ledgerwire connector on the PC "${machine}" is not connected: switch that PC on, make sure the connector is running and the PC is online. Waiting entries then go into TallyPrime by themselves.`,
        fix_by: 'end_user',
      });
    }
    // Online by the published state but its socket gone (within the grace period): still not connected.
    await setConnector(connectorId, { online: 1, connected: 0 });
    expect((await reasonOf(first)).code).toBe('connector_offline');
    await setConnector(connectorId, { connected: 1, books_running: 0 });
    expect(await reasonOf(second)).toEqual({
      code: 'books_not_running',
      message: expect.stringContaining('start TallyPrime'),
      user_message: expect.stringMatching(new RegExp(`^TallyPrime is not answering on the PC "${machine}": start TallyPrime there, and check that its XML port is on`)),
      fix_by: 'end_user',
    });
    await setConnector(connectorId, { books_running: 1, open_companies: JSON.stringify([{ guid: 'another-company', name: 'Another' }]) });
    expect(await reasonOf(first)).toEqual({
      code: 'company_not_open',
      message: expect.stringContaining('is not open'),
      user_message: `TallyPrime is running on the PC "${machine}" but the company "Sharma Traders (Books)" is not open in it: open that company in TallyPrime (Select Company) and keep it open.`,
      fix_by: 'end_user',
    });
    await setConnector(connectorId, { open_companies: JSON.stringify([{ guid: BOOKS_GUID.toUpperCase(), name: 'Sharma Traders (Books)' }]) });
    expect(await reasonOf(first)).toBeNull();

    // Handed to the connector: importing; the others count it among the jobs ahead.
    const queue = relay.app.bridge.jobQueue;
    const [claimed] = await queue.claimForConnector(connectorId, { limit: 1, leaseMs: 60_000 });
    expect(claimed?.job_id).toBe(first);
    expect(await reasonOf(first)).toEqual({ code: 'importing', message: expect.stringContaining('importing'), user_message: expect.stringMatching(/^This entry is going into TallyPrime now\./), fix_by: 'support' });
    expect((await reasonOf(third)).jobs_ahead).toBe(2);
    // A processing job whose connector went away says so.
    await setConnector(connectorId, { online: 0, connected: 0 });
    expect((await reasonOf(first)).code).toBe('connector_offline');
    await setConnector(connectorId, { online: 1, connected: 1 });

    expect(await queue.complete(first, connectorId, { books_voucher_guid: 'vch-guid-w1' })).toBe(true);
    expect(await reasonOf(first)).toBeNull();
    expect(await reasonOf(second)).toBeNull();
    expect(await reasonOf(third)).toMatchObject({ code: 'behind_earlier_jobs', jobs_ahead: 1 });

    // Every list says the same, row by row.
    const { body: list } = await api(relay, tenant.credential, 'GET', `/api/v1/transactions?company_id=${tenant.companyId}`, 200);
    const byJob = new Map(list.transactions.map((t: { job_id: string; waiting_reason: unknown }) => [t.job_id, t.waiting_reason]));
    expect(byJob.get(first)).toBeNull();
    expect(byJob.get(second)).toBeNull();
    expect(byJob.get(third)).toMatchObject({ code: 'behind_earlier_jobs', jobs_ahead: 1 });
    const { body: operator } = await admin(relay, 'GET', `/admin/v1/transactions?company_id=${tenant.companyId}`, 200);
    expect(operator.transactions.find((t: { job_id: string }) => t.job_id === third)?.waiting_reason).toMatchObject({ code: 'behind_earlier_jobs', jobs_ahead: 1 });
    const { body: detail } = await admin(relay, 'GET', `/admin/v1/transactions/${third}`, 200);
    expect(detail.transaction.waiting_reason).toMatchObject({ code: 'behind_earlier_jobs' });
    const { body: jobs } = await api(relay, tenant.credential, 'GET', `/api/v1/connectors/${machine}/jobs`, 200);
    expect(jobs.jobs.find((t: { job_id: string }) => t.job_id === first)?.waiting_reason).toBeNull();

    // Masters wait in the same queue.
    const { body: master } = await api(relay, tenant.credential, 'POST', `/api/v1/masters/ledger?company_id=${tenant.companyId}`, 200, { payload: { name: 'Waiting Ledger', parent: 'Sundry Debtors' } });
    const { body: masters } = await api(relay, tenant.credential, 'GET', `/api/v1/masters/ledger?company_id=${tenant.companyId}`, 200);
    expect(masters.transactions.find((t: { job_id: string }) => t.job_id === master.transaction_id)?.waiting_reason).toMatchObject({ code: 'behind_earlier_jobs', jobs_ahead: 2 });

    // Disconnected: queued jobs wait for a pairing.
    await api(relay, tenant.credential, 'POST', `/api/v1/companies/${tenant.companyId}/disconnect`, 200);
    expect((await reasonOf(second)).code).toBe('company_disconnected');
  });

  it('says why each company’s queue waits: its oldest unfinished job’s reason, for many companies at once', async () => {
    const other = await provisionTenant(relay, { name: 'Queue App' });
    const connectorId = await pairWithConnector(relay, other, 'guid-queue-books');
    const { body: idle } = await api(relay, other.credential, 'POST', '/api/v1/companies', 200, { payload: { name: 'Idle Books', customer_id: other.customerId } });
    for (const number of ['Q-1', 'Q-2']) {
      await api(relay, other.credential, 'POST', `/api/v1/invoices?company_id=${other.companyId}`, 200, { payload: { ...sampleInvoice, voucher_number: number } });
    }
    const db = relay.app.database.db;
    expect(await companyQueueWaitingReasons(db, [other.companyId, idle.company_id])).toEqual(new Map([[other.companyId, null], [idle.company_id, null]]));
    await setConnector(connectorId, { books_running: 0 });
    const reasons = await companyQueueWaitingReasons(db, [other.companyId, idle.company_id, tenant.companyId]);
    expect(reasons.get(other.companyId)).toMatchObject({ code: 'books_not_running' });
    expect(reasons.get(idle.company_id)).toBeNull();
    // The first suite's company is disconnected with jobs still queued.
    expect(reasons.get(tenant.companyId)).toMatchObject({ code: 'company_disconnected' });
  });
});
