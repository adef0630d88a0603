// Jobs over a real socket with the test connector: a write goes queued → processing → completed with
// the books GUID; failures carry their error; a repeated result is harmless; a dropped connector gets its
// job back with retry_count + 1, and past max_retries the job fails CONNECTOR_OFFLINE. The claim pass is
// set to an hour, so every delivery here proves the wake-up path (a job queued wakes the session).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, describeOnDatabases, eventually, startRelay, type TestRelay } from '@ledgerwire/test-kit';
import { BOOKS_RUNNING, BOOKS_STOPPED, TestConnector } from '../../helpers/test-connector.js';
import { createAttachedCompany, createTenant, pairFromConnector, readTransaction, writeInvoice, type Tenant } from './gateway-fixtures.js';

describeOnDatabases('connector jobs over the socket', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  let baseUrl: string;
  let credential: string;
  const open: TestConnector[] = [];

  beforeEach(async () => {
    relay = await startRelay({ database: kind, env: { RELAY_WORKERS: '0', BRIDGE_MAX_RETRIES: '2', CONNECTOR_CLAIM_INTERVAL_MS: '3600000' } });
    baseUrl = await relay.app.listen({ port: 0, host: '127.0.0.1' });
    tenant = await createTenant(relay.app);
    ({ credential } = await TestConnector.enroll(relay.app, { token: tenant.customerToken, machineName: 'FRONT-DESK' }));
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

  it('delivers a write and records completed with the GUID (queued → processing → completed)', async () => {
    const jobId = await writeInvoice(relay.app, tenant, 'S/1');
    expect(await readTransaction(relay.app, tenant, jobId)).toMatchObject({ status: 'queued', retry_count: 0 });

    const connector = await connect();
    const welcome = await connector.hello();
    expect(welcome.companies).toEqual([{ company_id: tenant.companyId, books_company_guid: 'books-guid-acme', books_company_name: 'Acme Traders' }]);
    const job = await connector.receiveJob(jobId);
    expect(job).toMatchObject({ job_id: jobId, company_id: tenant.companyId, books_company_guid: 'books-guid-acme', job_type: 'voucher', attempt: 1, remote_id: jobId });
    expect(job.xml).toContain('S/1');
    expect(await readTransaction(relay.app, tenant, jobId)).toMatchObject({ status: 'processing' });

    const ack = await connector.complete(jobId, { books_voucher_guid: 'guid-of-s1', books_alter_id: '41' });
    expect(ack.disposition).toBe('recorded');
    expect(await readTransaction(relay.app, tenant, jobId)).toMatchObject({ status: 'completed', books_voucher_guid: 'guid-of-s1', error_code: null });
  });

  it('treats a repeated result as harmless: acknowledged as duplicate, the first outcome stays', async () => {
    const connector = await connect();
    await connector.hello();
    const jobId = await writeInvoice(relay.app, tenant, 'S/2');
    await connector.receiveJob(jobId);
    expect((await connector.complete(jobId, { books_voucher_guid: 'guid-first' })).disposition).toBe('recorded');
    expect((await connector.complete(jobId, { books_voucher_guid: 'guid-second' })).disposition).toBe('duplicate');
    const failedLate = await connector.fail(jobId, { error_code: 'BOOKS_IMPORT_FAILED', error_label: 'Import failed', error_message: 'late' });
    expect(failedLate.disposition).toBe('duplicate');
    expect(await readTransaction(relay.app, tenant, jobId)).toMatchObject({ status: 'completed', books_voucher_guid: 'guid-first' });
    // A result for a job the relay never heard of is answered too, so the connector can drop it from its outbox.
    expect((await connector.complete('no-such-job', { books_voucher_guid: 'x' })).disposition).toBe('duplicate');
  });

  it('records a failure with its error code, label and message', async () => {
    const connector = await connect();
    await connector.hello();
    const jobId = await writeInvoice(relay.app, tenant, 'S/3');
    await connector.receiveJob(jobId);
    await connector.fail(jobId, { error_code: 'MASTER_NOT_FOUND', error_label: 'Master not found', error_message: 'Ledger "Customer A" does not exist in Acme Traders' });
    expect(await readTransaction(relay.app, tenant, jobId)).toMatchObject({ status: 'failed', error_code: 'MASTER_NOT_FOUND', books_voucher_guid: null });
  });

  it('requeues the job of a dropped connector with retry_count + 1 and delivers it again', async () => {
    const first = await connect();
    await first.hello();
    const jobId = await writeInvoice(relay.app, tenant, 'S/4');
    await first.receiveJob(jobId);
    await first.drop();
    const requeued = await eventually('requeue after the drop', () => readTransaction(relay.app, tenant, jobId), { until: (t) => t.status === 'queued' });
    expect(requeued.retry_count).toBe(1);

    const second = await connect();
    await second.hello();
    const again = await second.receiveJob(jobId);
    expect(again.attempt).toBe(2);
    await second.complete(jobId, { books_voucher_guid: 'guid-s4' });
    expect(await readTransaction(relay.app, tenant, jobId)).toMatchObject({ status: 'completed', retry_count: 1, books_voucher_guid: 'guid-s4' });
  });

  it('fails the job CONNECTOR_OFFLINE once the connector dropped more than max_retries times', async () => {
    const jobId = await writeInvoice(relay.app, tenant, 'S/5');
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const connector = await connect();
      await connector.hello();
      expect((await connector.receiveJob(jobId)).attempt).toBe(attempt);
      await connector.drop();
      await eventually(`close of attempt ${attempt} handled`, () => readTransaction(relay.app, tenant, jobId), { until: (t) => t.status !== 'processing' });
    }
    const failed = await readTransaction(relay.app, tenant, jobId);
    expect(failed).toMatchObject({ status: 'failed', error_code: 'CONNECTOR_OFFLINE', retry_count: 2, max_retries: 2 });
  });

  it('delivers each company’s jobs in order, the next ones while the session still runs earlier ones, several companies side by side', async () => {
    const otherCompany = await createAttachedCompany(relay.app, tenant.apiKey, tenant.customerId, 'Acme Retail');
    await pairFromConnector(relay.app, credential, otherCompany, 'books-guid-retail', 'Acme Retail');
    const connector = await connect();
    await connector.hello({ ...BOOKS_RUNNING, open_companies: [...BOOKS_RUNNING.open_companies, { guid: 'books-guid-retail', name: 'Acme Retail' }] });
    const a1 = await writeInvoice(relay.app, tenant, 'A/1');
    const a2 = await writeInvoice(relay.app, tenant, 'A/2');
    const b1 = await writeInvoice(relay.app, tenant, 'B/1', otherCompany);
    const delivered = [await connector.receiveJob(), await connector.receiveJob(), await connector.receiveJob()].map((j) => j.job_id);
    expect([...delivered].sort()).toEqual([a1, a2, b1].sort());
    expect(delivered.indexOf(a1)).toBeLessThan(delivered.indexOf(a2));
    await connector.complete(a1, { books_voucher_guid: 'g-a1' });
    await connector.complete(a2, { books_voucher_guid: 'g-a2' });
    await connector.complete(b1, { books_voucher_guid: 'g-b1' });
  });

  it('tells a live connector when a pairing changes and stops serving an unpaired company', async () => {
    const connector = await connect();
    await connector.hello();
    const otherCompany = await createAttachedCompany(relay.app, tenant.apiKey, tenant.customerId, 'Acme Retail');
    await pairFromConnector(relay.app, credential, otherCompany, 'books-guid-retail', 'Acme Retail');
    const pairings = await connector.next('pairings');
    expect(pairings.companies.map((c) => c.company_id).sort()).toEqual([tenant.companyId, otherCompany].sort());
    const { body } = await call(relay.app, 'DELETE', `/api/v1/connectors/pairings/${otherCompany}`, 200, { token: credential });
    expect(body).toMatchObject({ success: true, company: { company_id: otherCompany, connector_id: null } });
    expect((await connector.next('pairings')).companies.map((c) => c.company_id)).toEqual([tenant.companyId]);
    const jobId = await writeInvoice(relay.app, tenant, 'S/6');
    expect((await connector.receiveJob()).job_id).toBe(jobId);
  });

  it('lets a connector pair only companies of its own customer', async () => {
    const stranger = await createTenant(relay.app, 'Another application');
    const { body } = await call(relay.app, 'POST', '/api/v1/connectors/pairings', 403, {
      token: credential,
      payload: { company_id: stranger.companyId, books_company_guid: 'g', books_company_name: 'n' },
    });
    expect(body.error.code).toBe('company_forbidden');
    const { body: listed } = await call(relay.app, 'GET', '/api/v1/connectors/companies', 200, { token: credential });
    expect(listed.companies).toEqual([
      { company_id: tenant.companyId, name: 'Acme Traders', books_company_guid: 'books-guid-acme', books_company_name: 'Acme Traders', connector_id: expect.stringMatching(/^con_/) },
    ]);
    await call(relay.app, 'GET', '/api/v1/connectors/companies', 401, { token: tenant.apiKey });
  });

  it('pairs a books company whose name is as long as the books allow, and keeps the name verbatim', async () => {
    const name = `Sharma Traders ${'S'.repeat(460)} (2025-26)`;
    await call(relay.app, 'POST', '/api/v1/connectors/pairings', 200, { token: credential, payload: { company_id: tenant.companyId, books_company_guid: 'books-guid-long', books_company_name: name } });
    const { body: listed } = await call(relay.app, 'GET', '/api/v1/connectors/companies', 200, { token: credential });
    expect(listed.companies).toEqual([expect.objectContaining({ company_id: tenant.companyId, books_company_guid: 'books-guid-long', books_company_name: name })]);
    await call(relay.app, 'POST', '/api/v1/connectors/pairings', 400, { token: credential, payload: { company_id: tenant.companyId, books_company_guid: 'g'.repeat(201), books_company_name: 'n' } });
  });

  it('records outcomes re-reported in hello before handing jobs out again, so a finished job is not redelivered', async () => {
    const first = await connect();
    await first.hello();
    const jobId = await writeInvoice(relay.app, tenant, 'S/7');
    await first.receiveJob(jobId);
    // The books imported it, but the connection was cut before the result went out.
    await first.drop();
    await eventually('requeue after the drop', () => readTransaction(relay.app, tenant, jobId), { until: (t) => t.status === 'queued' });

    const second = await connect();
    second.send({
      type: 'hello',
      v: 1,
      connector_version: '1.0.0',
      books: BOOKS_RUNNING,
      outcomes: [{ job_id: jobId, outcome: { status: 'completed', books_voucher_guid: 'guid-s7' } }],
    });
    await second.next('welcome');
    expect(await second.next('job.result.ack')).toMatchObject({ job_id: jobId, disposition: 'recorded' });
    const next = await writeInvoice(relay.app, tenant, 'S/8');
    expect((await second.receiveJob()).job_id).toBe(next);
    expect(second.received.filter((m) => m.type === 'job.assign').map((m) => m.type === 'job.assign' && m.job.job_id)).toEqual([next]);
    expect(await readTransaction(relay.app, tenant, jobId)).toMatchObject({ status: 'completed', books_voucher_guid: 'guid-s7' });
  });

  it('keeps jobs queued while the books are stopped and delivers them once the books run', async () => {
    const connector = await connect();
    await connector.hello(BOOKS_STOPPED);
    const jobId = await writeInvoice(relay.app, tenant, 'W/1');
    expect(await readTransaction(relay.app, tenant, jobId)).toMatchObject({ status: 'queued', retry_count: 0 });
    connector.presence(BOOKS_RUNNING);
    expect((await connector.receiveJob()).job_id).toBe(jobId);
    connector.presence(BOOKS_STOPPED);
    await connector.complete(jobId, { books_voucher_guid: 'guid-w1' });
    const later = await writeInvoice(relay.app, tenant, 'W/2');
    expect(await readTransaction(relay.app, tenant, later)).toMatchObject({ status: 'queued' });
    expect(connector.received.filter((m) => m.type === 'job.assign')).toHaveLength(1);
  });

  it('keeps a company’s jobs queued while it is not open in the books, hands out the open one’s, then its own once open', async () => {
    const otherCompany = await createAttachedCompany(relay.app, tenant.apiKey, tenant.customerId, 'Acme Retail');
    await pairFromConnector(relay.app, credential, otherCompany, 'books-guid-retail', 'Acme Retail');
    const retailOnly = { ...BOOKS_RUNNING, open_companies: [{ guid: 'BOOKS-GUID-RETAIL', name: 'Acme Retail' }] };
    const connector = await connect();
    await connector.hello(retailOnly);
    const closedJob = await writeInvoice(relay.app, tenant, 'C/1');
    const openJob = await writeInvoice(relay.app, tenant, 'C/2', otherCompany);
    // The claim that hands out the later job of the open company passed the closed one's over.
    expect((await connector.receiveJob()).job_id).toBe(openJob);
    expect(await readTransaction(relay.app, tenant, closedJob)).toMatchObject({ status: 'queued', retry_count: 0 });
    connector.presence({ ...retailOnly, open_companies: [...retailOnly.open_companies, ...BOOKS_RUNNING.open_companies] });
    expect((await connector.receiveJob()).job_id).toBe(closedJob);
    await connector.complete(openJob, { books_voucher_guid: 'guid-c2' });
    await connector.complete(closedJob, { books_voucher_guid: 'guid-c1' });
    expect(await readTransaction(relay.app, tenant, closedJob)).toMatchObject({ status: 'completed', books_voucher_guid: 'guid-c1' });
  });
});
