// JobQueue semantics, driven directly as the gateway drives them: FIFO per company, a company's jobs
// held by one session at a time, a company not open in the books passed over, leases, requeue with
// retry_count + 1, CONNECTOR_OFFLINE past max_retries, idempotent completion, sanitised failures — and
// what the caller then reads from /transactions.
import { booksCompanyOpen } from '@ledgerwire/shared';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { JobQueue } from '../../src/bridge/services/jobs/job-queue.js';
import { freshJobColumns } from '../../src/bridge/services/writes/job-row-defaults.js';
import { describeOnDatabases, testClock, type TestClock, type TestRelay } from '@ledgerwire/test-kit';
import { admin, api, insertConnector, pairWithConnector, provisionTenant, sampleInvoice, startBridgeRelay, type Tenant } from './bridge-test-kit.js';

describeOnDatabases('bridge job queue', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  let connectorId: string;
  let secondCompanyId: number;
  let clock: TestClock;
  let queue: JobQueue;
  let counter = 0;

  const write = async (companyId: number, extra: Record<string, unknown> = {}) => {
    counter += 1;
    const { body } = await api(relay, tenant.credential, 'POST', `/api/v1/invoices?company_id=${companyId}`, 200, {
      payload: { ...sampleInvoice, voucher_number: `INV-${counter}`, ...extra },
    });
    return body.transaction_id as string;
  };
  const status = async (jobId: string) => (await api(relay, tenant.credential, 'GET', `/api/v1/transactions/${jobId}`, 200)).body.transaction;

  beforeAll(async () => {
    relay = await startBridgeRelay(kind, { BRIDGE_MAX_RETRIES: '2' });
    tenant = await provisionTenant(relay);
    connectorId = await pairWithConnector(relay, tenant, 'guid-a');
    const { body } = await api(relay, tenant.credential, 'POST', '/api/v1/companies', 200, { payload: { name: 'Second Books', customer_id: tenant.customerId } });
    secondCompanyId = body.company_id;
    await admin(relay, 'POST', `/admin/v1/companies/${secondCompanyId}/pair`, 200, { connector_id: connectorId, books_company_guid: 'guid-b', books_company_name: 'Second (Books)' });
  });
  afterAll(() => relay.close());

  beforeEach(async () => {
    // Every case starts with an empty queue and its own clock.
    await relay.app.database.db.deleteFrom('transactions').execute();
    clock = testClock(Date.parse('2026-01-01T10:00:00.000Z'));
    const { db, capabilities } = relay.app.database;
    queue = new JobQueue({ db, capabilities, clock: clock.date, maxRetries: 2 });
  });

  it('claims FIFO per company, a company’s run at a time, only for companies paired to the connector', async () => {
    const a1 = await write(tenant.companyId);
    const a2 = await write(tenant.companyId);
    const b1 = await write(secondCompanyId);
    const a3 = await write(tenant.companyId);
    const stranger = await insertConnector(relay, tenant);
    expect(await queue.claimForConnector(stranger, { limit: 10, leaseMs: 60_000 })).toEqual([]);

    // Each company's queued run goes out together, oldest first; a limit caps the whole claim.
    const first = await queue.claimForConnector(connectorId, { limit: 2, leaseMs: 60_000 });
    expect(first.map((j) => j.job_id)).toEqual([a1, a2]);
    expect(first[0]).toMatchObject({
      company_id: tenant.companyId,
      books_company_guid: 'guid-a',
      books_company_name: 'Sharma Traders (Books)',
      job_type: 'voucher',
      event_type: 'sales.create',
      remote_id: a1,
      books_voucher_guid: null,
      retry_count: 0,
      lease_expires_at: '2026-01-01T10:01:00.000Z',
    });
    expect(first[0]?.xml).toContain('Sharma Traders (Books)');
    expect((await status(a1)).status).toBe('processing');
    expect((await status(a3)).status).toBe('queued');
    // While a company has jobs in flight, its later jobs wait; other companies go on.
    const second = await queue.claimForConnector(connectorId, { limit: 10, leaseMs: 60_000 });
    expect(second.map((j) => j.job_id)).toEqual([b1]);
    expect(second[0]?.xml).toContain('Second (Books)');
    expect(await queue.claimForConnector(connectorId, { limit: 10, leaseMs: 60_000 })).toEqual([]);

    expect(await queue.complete(a1, connectorId, { books_voucher_guid: 'vch-guid-1', books_master_id: '42', books_alter_id: '7' })).toBe(true);
    expect(await queue.claimForConnector(connectorId, { limit: 10, leaseMs: 60_000 })).toEqual([]);
    expect(await queue.complete(a2, connectorId, { books_voucher_guid: 'vch-guid-2' })).toBe(true);
    expect((await queue.claimForConnector(connectorId, { limit: 1, leaseMs: 60_000 })).map((j) => j.job_id)).toEqual([a3]);
  });

  it('passes over a company not open in the books: its jobs stay queued, the open one’s go out', async () => {
    const [a1, b1] = [await write(tenant.companyId), await write(secondCompanyId)];
    const open = [{ guid: 'GUID-B' }]; // the books' GUIDs compare case aside
    const companyOpen = (guid: string) => booksCompanyOpen(open, guid);
    expect((await queue.claimForConnector(connectorId, { limit: 10, leaseMs: 60_000, companyOpen })).map((j) => j.job_id)).toEqual([b1]);
    expect((await status(a1)).status).toBe('queued');
    open.push({ guid: 'guid-a' });
    expect((await queue.claimForConnector(connectorId, { limit: 10, leaseMs: 60_000, companyOpen })).map((j) => j.job_id)).toEqual([a1]);
  });

  it('hands a session a company’s next jobs while it runs earlier ones, but no other session until those are done', async () => {
    const [a1, a2, a3] = [await write(tenant.companyId), await write(tenant.companyId), await write(tenant.companyId)];
    const claim = (sessionId: string, limit = 10) => queue.claimForConnector(connectorId, { limit, leaseMs: 60_000, sessionId });
    expect((await claim('cses_one', 1)).map((j) => j.job_id)).toEqual([a1]);
    // A leftover session of the same connector (another relay process) must not overtake the holder.
    expect(await claim('cses_other')).toEqual([]);
    expect((await claim('cses_one', 1)).map((j) => j.job_id)).toEqual([a2]);
    expect(await queue.complete(a1, connectorId, { books_voucher_guid: 'g-1' })).toBe(true);
    expect(await claim('cses_other')).toEqual([]);
    expect(await queue.complete(a2, connectorId, { books_voucher_guid: 'g-2' })).toBe(true);
    expect((await claim('cses_other')).map((j) => j.job_id)).toEqual([a3]);
  });

  it('records a run of outcomes in one call: each settles once, a repeat or another connector’s report does not', async () => {
    const [a1, a2, a3] = [await write(tenant.companyId), await write(tenant.companyId), await write(tenant.companyId)];
    await queue.claimForConnector(connectorId, { limit: 10, leaseMs: 60_000 });
    const recorded = await queue.recordOutcomes(connectorId, [
      { job_id: a1, status: 'completed', books_voucher_guid: 'g-1', books_master_id: '11' },
      { job_id: a2, status: 'failed', error_code: 'MASTER_NOT_FOUND', error_label: 'x', error_message: '<LINEERROR>Ledger "X" does not exist</LINEERROR>' },
      { job_id: a1, status: 'completed', books_voucher_guid: 'g-again' },
    ]);
    expect(recorded).toEqual([true, true, false]);
    expect(await queue.recordOutcomes('con_other', [{ job_id: a3, status: 'completed' }])).toEqual([false]);
    expect(await status(a1)).toMatchObject({ status: 'completed', books_voucher_guid: 'g-1', books_master_id: '11' });
    expect(await status(a2)).toMatchObject({ status: 'failed', error_code: 'MASTER_NOT_FOUND', books_voucher_guid: null });
    expect((await status(a2)).error_message).not.toMatch(/LINEERROR|</);
    expect(await status(a3)).toMatchObject({ status: 'processing' });
  });

  it('completion is idempotent and the caller reads the GUID and alter id', async () => {
    const job = await write(tenant.companyId);
    await queue.claimForConnector(connectorId, { limit: 1, leaseMs: 60_000 });
    expect(await queue.complete(job, 'con_other', { books_voucher_guid: 'x' })).toBe(false);
    expect(await queue.complete(job, connectorId, { books_voucher_guid: 'vch-1', books_master_id: '11', books_alter_id: '3' })).toBe(true);
    expect(await queue.complete(job, connectorId, { books_voucher_guid: 'vch-other' })).toBe(false);
    expect(await queue.fail(job, connectorId, { error_code: 'BOOKS_IMPORT_FAILED', error_label: 'x', error_message: 'x' })).toBe(false);
    const record = await status(job);
    expect(record).toMatchObject({
      job_id: job,
      transaction_id: job,
      service_company_id: tenant.companyId,
      job_type: 'voucher',
      status: 'completed',
      retry_count: 0,
      max_retries: 2,
      books_voucher_guid: 'vch-1',
      books_master_id: '11',
      books_alter_id: '3',
      error_code: null,
      error_label: null,
      error_message: null,
      payload: { voucher_number: expect.any(String), voucher_type: 'Sales', voucher_kind: 'sales' },
      completed_at: clock.date().toISOString(),
    });
  });

  it('a failure carries code, label and a sanitised message; the GUID stays null', async () => {
    const job = await write(tenant.companyId);
    await queue.claimForConnector(connectorId, { limit: 1, leaseMs: 60_000 });
    const raw = [
      '<RESPONSE><LINEERROR>Ledger &apos;Acme Retail&apos; does not exist!</LINEERROR></RESPONSE>',
      '    at importVoucher (/home/runner/connector/src/core/books-client.ts:120:11)',
      'token lwk_test_0123456789abcdef:lws_supersecretvalue123456 Bearer abc.def',
    ].join('\n');
    expect(await queue.fail(job, connectorId, { error_code: 'MASTER_NOT_FOUND', error_label: 'Master not found', error_message: raw })).toBe(true);
    const record = await status(job);
    expect(record).toMatchObject({ status: 'failed', error_code: 'MASTER_NOT_FOUND', error_label: 'Master not found', books_voucher_guid: null });
    expect(record.error_message).toContain("Ledger 'Acme Retail' does not exist!");
    for (const leaked of ['<', 'LINEERROR', '/home/runner', 'books-client.ts', 'lws_supersecret', 'lwk_test_0123', 'abc.def']) expect(record.error_message).not.toContain(leaked);
    expect(await queue.complete(job, connectorId, { books_voucher_guid: 'late' })).toBe(false);

    const other = await write(tenant.companyId);
    await queue.claimForConnector(connectorId, { limit: 1, leaseMs: 60_000 });
    await queue.fail(other, connectorId, { error_code: 'SOMETHING_ODD', error_label: '', error_message: '' });
    expect(await status(other)).toMatchObject({ error_code: 'BOOKS_IMPORT_FAILED', error_label: 'Import failed', error_message: 'Import failed' });
  });

  it('a dropped connector requeues with retry_count + 1; past max_retries the job fails CONNECTOR_OFFLINE', async () => {
    const job = await write(tenant.companyId);
    for (let attempt = 1; attempt <= 2; attempt++) {
      const [claimed] = await queue.claimForConnector(connectorId, { limit: 1, leaseMs: 60_000 });
      expect(claimed).toMatchObject({ job_id: job, retry_count: attempt - 1 });
      expect(await queue.requeueConnectorJobs(connectorId)).toBe(1);
      expect(await status(job)).toMatchObject({ status: 'queued', retry_count: attempt });
    }
    await queue.claimForConnector(connectorId, { limit: 1, leaseMs: 60_000 });
    expect(await queue.requeueConnectorJobs(connectorId)).toBe(1);
    expect(await status(job)).toMatchObject({
      status: 'failed',
      retry_count: 2,
      max_retries: 2,
      error_code: 'CONNECTOR_OFFLINE',
      error_label: 'Connector offline',
      books_voucher_guid: null,
      completed_at: expect.any(String),
    });
    expect(await queue.requeueConnectorJobs(connectorId)).toBe(0);
  });

  it('a connector holding nothing requeues nothing and leaves the jobs another connector holds', async () => {
    const job = await write(tenant.companyId);
    const [claimed] = await queue.claimForConnector(connectorId, { limit: 1, leaseMs: 60_000 });
    expect(claimed).toMatchObject({ job_id: job });
    const stranger = await insertConnector(relay, tenant);
    expect(await queue.requeueConnectorJobs(stranger)).toBe(0);
    expect(await status(job)).toMatchObject({ status: 'processing', retry_count: 0 });
    // The holder's own requeue still finds it.
    expect(await queue.requeueConnectorJobs(connectorId)).toBe(1);
    expect(await status(job)).toMatchObject({ status: 'queued', retry_count: 1 });
  });

  it('lets the connector’s own outcome replace CONNECTOR_OFFLINE (the relay’s guess), and nothing else', async () => {
    const giveUp = async () => {
      const job = await write(tenant.companyId);
      for (let attempt = 1; attempt <= 3; attempt++) {
        await queue.claimForConnector(connectorId, { limit: 1, leaseMs: 60_000 });
        await queue.requeueConnectorJobs(connectorId);
      }
      expect(await status(job)).toMatchObject({ status: 'failed', error_code: 'CONNECTOR_OFFLINE' });
      return job;
    };
    // The connector still held it and the books booked it: the transaction reads completed.
    const booked = await giveUp();
    expect((await status(booked)).error_message).toMatch(/turns completed: check before sending the voucher again/);
    expect(await queue.complete(booked, connectorId, { books_voucher_guid: 'vch-after-all' })).toBe(true);
    expect(await status(booked)).toMatchObject({ status: 'completed', books_voucher_guid: 'vch-after-all', error_code: null, error_message: null });
    expect(await queue.complete(booked, connectorId, { books_voucher_guid: 'vch-again' })).toBe(false);
    // The books refused it: their reason replaces the guess.
    const refused = await giveUp();
    expect(await queue.fail(refused, connectorId, { error_code: 'MASTER_NOT_FOUND', error_label: 'Master not found', error_message: "Ledger 'X' does not exist!" })).toBe(true);
    expect(await status(refused)).toMatchObject({ status: 'failed', error_code: 'MASTER_NOT_FOUND' });
    expect(await queue.complete(refused, connectorId, { books_voucher_guid: 'late' })).toBe(false);
    // Another connector's word does not count.
    const other = await giveUp();
    expect(await queue.complete(other, 'con_someone_else', { books_voucher_guid: 'x' })).toBe(false);
    expect(await status(other)).toMatchObject({ status: 'failed', error_code: 'CONNECTOR_OFFLINE' });
  });

  it('an expired lease is reaped like a drop; a late result for a requeued job still settles it', async () => {
    const job = await write(tenant.companyId);
    await queue.claimForConnector(connectorId, { limit: 1, leaseMs: 1000 });
    clock.advance(999);
    expect(await queue.expireLeases()).toBe(0);
    clock.advance(2);
    expect(await queue.expireLeases()).toBe(1);
    expect(await status(job)).toMatchObject({ status: 'queued', retry_count: 1 });
    expect(await queue.complete(job, connectorId, { books_voucher_guid: 'vch-late' })).toBe(true);
    expect(await status(job)).toMatchObject({ status: 'completed', books_voucher_guid: 'vch-late', retry_count: 1 });
  });

  /** A job as the write services enqueue it, without going through HTTP. */
  const job = (n: number, companyId: number) => ({
    job_id: `job_direct_${n}`,
    company_id: companyId,
    application_id: tenant.applicationId,
    client_transaction_id: `direct-${n}`,
    job_type: 'voucher' as const,
    event_type: 'sales.create',
    master_type: null,
    payload: '{}',
    document: `{"n":${n}}`,
    xml: `<ENVELOPE n="${n}" q='"\\'/>`,
    xml_company_name: 'Books',
    target_voucher_guid: null,
    request_fingerprint: n % 2 === 0 ? null : `fp-${n}`,
    ...freshJobColumns(clock.date().toISOString()),
  });

  it('writes a batch with its documents, and a job that cannot be stored fails alone', async () => {
    // One turn: one batch. Company 2147483647 does not exist, so the batch's statement fails and its
    // jobs are written one at a time.
    const results = await Promise.allSettled([11, 12, 13].map((n) => queue.enqueue(job(n, n === 12 ? 2_147_483_647 : tenant.companyId))));
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const documents = await relay.app.database.db
      .selectFrom('transactions')
      .innerJoin('transaction_documents', 'transaction_documents.transaction_id', 'transactions.id')
      .select(['job_id', 'document', 'xml', 'request_fingerprint'])
      .where('job_id', 'like', 'job_direct_%')
      .orderBy('job_id')
      .execute();
    expect(documents).toEqual([
      { job_id: 'job_direct_11', document: '{"n":11}', xml: `<ENVELOPE n="11" q='"\\'/>`, request_fingerprint: 'fp-11' },
      { job_id: 'job_direct_13', document: '{"n":13}', xml: `<ENVELOPE n="13" q='"\\'/>`, request_fingerprint: 'fp-13' },
    ]);
    // Both in one batch this time, with a null fingerprint: each row has its own document.
    await Promise.all([14, 16].map((n) => queue.enqueue(job(n, tenant.companyId))));
    const more = await relay.app.database.db
      .selectFrom('transactions')
      .innerJoin('transaction_documents', 'transaction_documents.transaction_id', 'transactions.id')
      .select(['job_id', 'document', 'request_fingerprint'])
      .where('job_id', 'in', ['job_direct_14', 'job_direct_16'])
      .orderBy('job_id')
      .execute();
    expect(more).toEqual([
      { job_id: 'job_direct_14', document: '{"n":14}', request_fingerprint: null },
      { job_id: 'job_direct_16', document: '{"n":16}', request_fingerprint: null },
    ]);
  });

  it('wakes the gateway once per company for the jobs of one batch', async () => {
    const woken: number[] = [];
    queue.onJobQueued((companyId) => woken.push(companyId));
    // Enqueued in one turn: one batch, one transaction.
    const results = await Promise.all([1, 2, 3, 4].map((n) => queue.enqueue(job(n, n === 3 ? secondCompanyId : tenant.companyId))));
    expect(results.map((result) => result.created)).toEqual([true, true, true, true]);
    expect(woken.sort()).toEqual([tenant.companyId, secondCompanyId].sort());
    // A repeat queues nothing and wakes nobody.
    expect((await queue.enqueue(job(1, tenant.companyId))).created).toBe(false);
    expect(woken).toHaveLength(2);
  });

  it('wakes the gateway when a job is queued (not for an idempotent repeat) and re-renders for a renamed books company', async () => {
    const woken: number[] = [];
    relay.app.bridge.jobQueue.onJobQueued((companyId) => woken.push(companyId));
    await write(secondCompanyId, { transaction_id: 'order-77', voucher_number: 'INV-77' });
    await write(secondCompanyId, { transaction_id: 'order-77', voucher_number: 'INV-77' });
    expect(woken).toEqual([secondCompanyId]);

    await admin(relay, 'POST', `/admin/v1/companies/${secondCompanyId}/pair`, 200, { connector_id: connectorId, books_company_guid: 'guid-b', books_company_name: 'Renamed Books Co' });
    const [claimed] = await queue.claimForConnector(connectorId, { limit: 5, leaseMs: 60_000 });
    expect(claimed?.books_company_name).toBe('Renamed Books Co');
    expect(claimed?.xml).toContain('Renamed Books Co');
    expect(claimed?.xml).not.toContain('Second (Books)');
  });
});
