// transaction.completed / transaction.failed webhooks (issue 21, item 6), at the job queue: raised with
// the outcome in one database transaction — once per terminal outcome, however often or however
// concurrently the connector reports it — for vouchers and masters, for a relay-side CONNECTOR_OFFLINE
// failure and for the later completion that replaces it; only to endpoints subscribed to them; signed
// and delivered by the one engine. (connector/test/transaction-webhooks.test.ts runs the same with the
// real connector and the emulator.)
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { call, describeOnDatabases, startWebhookCatcher, type TestRelay, type WebhookCatcher } from '@ledgerwire/test-kit';
import { api, pairWithConnector, provisionTenant, sampleInvoice, startBridgeRelay, type Tenant } from './bridge-test-kit.js';

describeOnDatabases('bridge transaction outcome webhooks', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  let receiver: WebhookCatcher;
  let connectorId: string;
  let secret: string;
  let endpointId: string;
  let counter = 0;

  const deliverAll = () => relay.app.webhooks.deliveryLoop.runOnce();
  const queue = () => relay.app.bridge.jobQueue;
  const storedEvents = async () =>
    (await relay.app.database.db.selectFrom('webhook_events').select(['type', 'payload']).where('owner_id', '=', tenant.applicationId).orderBy('created_at').execute()).map(
      (row) => ({ type: row.type, data: (JSON.parse(row.payload) as { data: Record<string, unknown> }).data }),
    );
  const write = async (extra: Record<string, unknown> = {}) => {
    counter += 1;
    const { body } = await api(relay, tenant.credential, 'POST', `/api/v1/invoices?company_id=${tenant.companyId}`, 200, {
      payload: { ...sampleInvoice, voucher_number: `INV-T${counter}`, ...extra },
    });
    return body.transaction_id as string;
  };
  const claimAll = () => queue().claimForConnector(connectorId, { limit: 50, leaseMs: 60_000 });

  beforeAll(async () => {
    relay = await startBridgeRelay(kind, { BRIDGE_MAX_RETRIES: '0' });
    tenant = await provisionTenant(relay);
    connectorId = await pairWithConnector(relay, tenant);
  });
  afterAll(async () => relay.close());
  beforeEach(async () => {
    receiver = await startWebhookCatcher();
    const { body } = await api(relay, tenant.credential, 'POST', '/api/v1/webhooks', 200, { payload: { url: receiver.url() } });
    secret = body.webhook.secret;
    endpointId = body.webhook.id;
  });
  afterEach(async () => {
    await deliverAll();
    await api(relay, tenant.credential, 'DELETE', `/api/v1/webhooks/${endpointId}`, 200);
    await relay.app.database.db.deleteFrom('webhook_attempts').execute();
    await relay.app.database.db.deleteFrom('webhook_deliveries').execute();
    await relay.app.database.db.deleteFrom('webhook_events').execute();
    await receiver.close();
  });

  it('a booked voucher raises transaction.completed and a refused one transaction.failed, each once, signed', async () => {
    const booked = await write({ transaction_id: 'erp-hook-1' });
    const refused = await write();
    expect((await claimAll()).map((job) => job.job_id)).toEqual([booked, refused]);
    const recorded = await queue().recordOutcomes(connectorId, [
      { job_id: booked, status: 'completed', books_voucher_guid: 'guid-vch-000000a1', books_master_id: '161' },
      { job_id: refused, status: 'failed', error_code: 'MASTER_NOT_FOUND', error_label: 'Master not found', error_message: "Ledger 'Nobody & Co' does not exist!" },
    ]);
    expect(recorded).toEqual([true, true]);
    // The connector's report arrives again (its acknowledgement was lost): nothing new is raised.
    expect(await queue().complete(booked, connectorId, { books_voucher_guid: 'guid-vch-000000a1' })).toBe(false);
    expect(await queue().fail(refused, connectorId, { error_code: 'MASTER_NOT_FOUND', error_label: '', error_message: 'again' })).toBe(false);

    await deliverAll();
    const delivered = await receiver.deliveries(2);
    expect(receiver.received).toHaveLength(2);
    const verifier = new Webhook(secret);
    for (const webhook of delivered) expect(() => verifier.verify(webhook.body, webhook.headers)).not.toThrow();
    const completed = delivered.find((w) => w.type === 'transaction.completed');
    const failed = delivered.find((w) => w.type === 'transaction.failed');
    expect(completed?.data).toMatchObject({
      company_id: tenant.companyId,
      service_company_id: tenant.companyId,
      job_id: booked,
      transaction_id: 'erp-hook-1',
      job_type: 'voucher',
      event_type: 'sales.create',
      status: 'completed',
      books_voucher_guid: 'guid-vch-000000a1',
      books_master_id: '161',
      error_code: null,
      error_message: null,
      completed_at: expect.any(String),
      payload: { kind: 'voucher', voucher_kind: 'sales', voucher_type: 'Sales', voucher_number: 'INV-T1', party_ledger: 'Acme Retail', amount: 1180 },
    });
    expect(completed?.data).not.toHaveProperty('waiting_reason');
    expect(failed?.data).toMatchObject({
      company_id: tenant.companyId,
      job_id: refused,
      transaction_id: refused,
      status: 'failed',
      books_voucher_guid: null,
      error_code: 'MASTER_NOT_FOUND',
      error_label: 'Master not found',
      error_message: "Ledger 'Nobody & Co' does not exist!",
      user_message: expect.stringMatching(/^TallyPrime has no ledger "Nobody & Co" in this company\. Create it in TallyPrime/),
      fix_by: 'end_user',
      payload: { voucher_number: 'INV-T2' },
    });
    const { body: failedRead } = await api(relay, tenant.credential, 'GET', `/api/v1/transactions/${refused}`, 200);
    expect(failedRead.transaction).toMatchObject({ user_message: failed?.data.user_message, fix_by: 'end_user', waiting_reason: null });
    // The body is the transaction read, plus company_id.
    const { body: read } = await api(relay, tenant.credential, 'GET', `/api/v1/transactions/${booked}`, 200);
    const { waiting_reason: _none, ...record } = read.transaction;
    expect(completed?.data).toEqual({ company_id: tenant.companyId, ...record });
  });

  it('two concurrent reports of one outcome raise one event; masters raise theirs too', async () => {
    const job = await write();
    const { body: master } = await api(relay, tenant.credential, 'POST', `/api/v1/masters/ledger?company_id=${tenant.companyId}`, 200, { payload: { name: 'Hook Ledger', parent: 'Sundry Debtors' } });
    await claimAll();
    const report = { job_id: job, status: 'completed' as const, books_voucher_guid: 'guid-vch-000000b2' };
    const results = await Promise.all([queue().recordOutcomes(connectorId, [report]), queue().recordOutcomes(connectorId, [report])]);
    expect(results.flat().filter(Boolean)).toHaveLength(1);
    expect(await queue().complete(master.transaction_id, connectorId, { books_master_id: '900' })).toBe(true);
    const events = await storedEvents();
    expect(events.map((e) => [e.type, e.data.job_id])).toEqual([
      ['transaction.completed', job],
      ['transaction.completed', master.transaction_id],
    ]);
    expect(events[1]?.data).toMatchObject({ job_type: 'master', event_type: 'ledger.create', books_master_id: '900', payload: { kind: 'master', master_type: 'ledger', name: 'Hook Ledger' } });
  });

  it('a job the relay gives up on raises transaction.failed CONNECTOR_OFFLINE; a later booking raises transaction.completed', async () => {
    const job = await write();
    await claimAll();
    // BRIDGE_MAX_RETRIES=0: the first drop exhausts the job.
    expect(await queue().requeueConnectorJobs(connectorId)).toBe(1);
    expect(await queue().requeueConnectorJobs(connectorId)).toBe(0);
    expect(await queue().complete(job, connectorId, { books_voucher_guid: 'guid-vch-000000c3' })).toBe(true);
    const events = await storedEvents();
    expect(events.map((e) => [e.type, e.data.error_code])).toEqual([
      ['transaction.failed', 'CONNECTOR_OFFLINE'],
      ['transaction.completed', null],
    ]);
    expect(events[1]?.data).toMatchObject({ job_id: job, status: 'completed', books_voucher_guid: 'guid-vch-000000c3' });
  });

  it('an endpoint not subscribed to outcomes gets none, and nothing is kept for it', async () => {
    await api(relay, tenant.credential, 'PATCH', `/api/v1/webhooks/${endpointId}`, 200, { payload: { events: ['connector.online', 'transaction.failed'] } });
    const ok = await write();
    const bad = await write();
    await claimAll();
    await queue().recordOutcomes(connectorId, [
      { job_id: ok, status: 'completed', books_voucher_guid: 'guid-vch-000000d4' },
      { job_id: bad, status: 'failed', error_code: 'VOUCHER_TYPE_NOT_FOUND', error_label: '', error_message: "Voucher type 'Sales' does not exist" },
    ]);
    expect((await storedEvents()).map((e) => [e.type, e.data.job_id])).toEqual([['transaction.failed', bad]]);
    await api(relay, tenant.credential, 'PATCH', `/api/v1/webhooks/${endpointId}`, 200, { payload: { enabled: false } });
    const quiet = await write();
    await claimAll();
    expect(await queue().fail(quiet, connectorId, { error_code: 'MASTER_NOT_FOUND', error_label: '', error_message: 'x' })).toBe(true);
    expect(await storedEvents()).toHaveLength(1);
  });

  it('the OpenAPI document describes both events, their body, and lists them among the subscribable types', async () => {
    const { body: document } = await call(relay.app, 'GET', '/docs/json', 200);
    for (const type of ['transaction.completed', 'transaction.failed']) {
      const schema = document.webhooks?.[type]?.post?.requestBody?.content?.['application/json']?.schema;
      expect(schema?.properties?.type?.enum, type).toEqual(['transaction.completed', 'transaction.failed']);
      expect(Object.keys(schema?.properties?.data?.properties ?? {}), type).toEqual(
        expect.arrayContaining(['company_id', 'job_id', 'transaction_id', 'status', 'payload', 'books_voucher_guid', 'books_master_id', 'error_code', 'error_message']),
      );
    }
    const create = document.paths['/api/v1/webhooks'].post.requestBody.content['application/json'].schema;
    expect(JSON.stringify(create)).toContain('transaction.completed');
  });
});
