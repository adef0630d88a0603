// Support's bridge tasks through the operator API and the admin CLI: rotate a customer's token by id
// (the old token enrols no more, an enrolled connector keeps working), attach / detach a company (with
// company.linked / company.unlinked queued), disconnect (its jobs stay queued), read one application
// or company; bad input answers 4xx in plain words.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { adminCommands } from '../../src/cli/admin-commands.js';
import type { AdminCommandContext } from '../../src/foundation/admin-command.js';
import { call, describeOnDatabases, type TestRelay } from '@ledgerwire/test-kit';
import { admin, api, pairWithConnector, provisionTenant, sampleInvoice, startBridgeRelay, type Tenant } from './bridge-test-kit.js';

describeOnDatabases('bridge operator support tasks', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  const run = (name: string, args: string[] = [], options: Record<string, string> = {}): Promise<any> => {
    const command = adminCommands[name];
    if (!command) throw new Error(`no command ${name}`);
    const context: AdminCommandContext = { config: relay.config, database: relay.app.database, args, options };
    return command.run(context);
  };
  const enrol = (token: string, machine: string) =>
    call(relay.app, 'POST', '/api/v1/connectors/enroll', 200, { payload: { token, machine_name: machine, version: '1.0.0' } });
  const queuedEvents = async (companyId: number) => {
    const rows = await relay.app.database.db.selectFrom('webhook_events').select(['type', 'payload']).where('owner_id', '=', tenant.applicationId).orderBy('created_at').execute();
    return rows.filter((row) => (JSON.parse(row.payload) as { data: { company_id: number } }).data.company_id === companyId).map((row) => row.type);
  };

  beforeAll(async () => {
    relay = await startBridgeRelay(kind);
    tenant = await provisionTenant(relay);
    // An endpoint subscribed to the link events, so publishing them leaves event rows to look at.
    await api(relay, tenant.credential, 'POST', '/api/v1/webhooks', 200, { payload: { url: 'http://127.0.0.1:9/hooks', events: ['company.linked', 'company.unlinked'] } });
  });
  afterAll(() => relay.close());

  it('rotates a customer token by id: shown once, the old token enrols no more, an enrolled connector keeps working', async () => {
    const { body: enrolled } = await enrol(tenant.customerToken, 'SUPPORT-PC');
    const { body } = await admin(relay, 'POST', `/admin/v1/customers/${tenant.customerId}/rotate-token`, 200);
    expect(body).toEqual({
      success: true,
      customer: { id: tenant.customerId, application_id: tenant.applicationId, name: 'Sharma Traders', external_id: 'ext-1', token: expect.stringMatching(/^lwct_/), created_at: expect.any(String) },
    });
    expect(body.customer.token).not.toBe(tenant.customerToken);

    const { body: refused } = await call(relay.app, 'POST', '/api/v1/connectors/enroll', 401, { payload: { token: tenant.customerToken, machine_name: 'NEW-PC', version: '1.0.0' } });
    expect(refused.error.code).toBe('enrolment_token_invalid');
    const { body: still } = await call(relay.app, 'GET', '/api/v1/connectors/companies', 200, { token: enrolled.credential });
    expect(still.companies.map((c: { company_id: number }) => c.company_id)).toContain(tenant.companyId);
    await enrol(body.customer.token, 'NEW-PC');

    // The token is never in the customer list, and the old one no longer rotates through the API either.
    const { body: list } = await admin(relay, 'GET', `/admin/v1/customers?application_id=${tenant.applicationId}`, 200);
    expect(JSON.stringify(list)).not.toContain('lwct_');
    await api(relay, tenant.credential, 'POST', `/api/v1/customers/${tenant.customerToken}/rotate`, 404);
    tenant = { ...tenant, customerToken: body.customer.token };
  });

  it('refuses to rotate an unknown customer, and without the operator token', async () => {
    const { body } = await admin(relay, 'POST', '/admin/v1/customers/cus_missing/rotate-token', 404);
    expect(body.error).toMatchObject({ code: 'customer_not_found', message: 'No customer cus_missing' });
    await call(relay.app, 'POST', `/admin/v1/customers/${tenant.customerId}/rotate-token`, 401);
    await call(relay.app, 'POST', `/admin/v1/customers/${tenant.customerId}/rotate-token`, 401, { token: tenant.credential });
  });

  it('reads one application and one company', async () => {
    const { body: application } = await admin(relay, 'GET', `/admin/v1/applications/${tenant.applicationId}`, 200);
    expect(application).toEqual({ success: true, application: { id: tenant.applicationId, name: 'Acme Billing', created_at: expect.any(String) } });
    const { body: company } = await admin(relay, 'GET', `/admin/v1/companies/${tenant.companyId}`, 200);
    expect(company.company).toMatchObject({ company_id: tenant.companyId, application_id: tenant.applicationId, name: 'Sharma Traders FY25', customer_id: tenant.customerId });
    expect((await admin(relay, 'GET', '/admin/v1/applications/app_missing', 404)).body.error.code).toBe('application_not_found');
    expect((await admin(relay, 'GET', '/admin/v1/companies/999999', 404)).body.error.code).toBe('company_not_found');
    await admin(relay, 'GET', '/admin/v1/companies/not-a-number', 400);
    await call(relay.app, 'GET', `/admin/v1/companies/${tenant.companyId}`, 401);
  });

  it('attaches and detaches a company, queuing company.linked and company.unlinked once each', async () => {
    const { body: created } = await api(relay, tenant.credential, 'POST', '/api/v1/companies', 200, { payload: { name: 'Support Linked' } });
    const id: number = created.company_id;
    const { body: attached } = await admin(relay, 'POST', `/admin/v1/companies/${id}/customer`, 200, { customer_id: tenant.customerId });
    expect(attached.company).toMatchObject({ company_id: id, customer_id: tenant.customerId, application_id: tenant.applicationId });
    await admin(relay, 'POST', `/admin/v1/companies/${id}/customer`, 200, { customer_id: tenant.customerId }); // already so: no event

    const { body: other } = await api(relay, tenant.credential, 'POST', '/api/v1/customers', 200, { payload: { name: 'Other Business' } });
    const { body: busy } = await admin(relay, 'POST', `/admin/v1/companies/${id}/customer`, 409, { customer_id: other.customer.id });
    expect(busy.error.code).toBe('company_already_attached');
    expect(busy.error.message).toContain('detach it first');

    const { body: detached } = await admin(relay, 'DELETE', `/admin/v1/companies/${id}/customer`, 200);
    expect(detached.company).toMatchObject({ company_id: id, customer_id: null });
    await admin(relay, 'DELETE', `/admin/v1/companies/${id}/customer`, 200); // nothing to unlink: no event
    expect(await queuedEvents(id)).toEqual(['company.linked', 'company.unlinked']);
  });

  it('refuses an attach to a missing customer, another application’s customer, or without customer_id', async () => {
    const stranger = await provisionTenant(relay, { name: 'Stranger Apps' });
    const { body: wrongApp } = await admin(relay, 'POST', `/admin/v1/companies/${tenant.companyId}/customer`, 404, { customer_id: stranger.customerId });
    expect(wrongApp.error.code).toBe('customer_not_found');
    await admin(relay, 'POST', `/admin/v1/companies/${stranger.companyId}/customer`, 404, { customer_id: 'cus_missing' });
    const { body: missing } = await admin(relay, 'POST', `/admin/v1/companies/${tenant.companyId}/customer`, 400, {});
    expect(missing.error.code).toBe('bad_request');
    expect(JSON.stringify(missing.error.details)).toContain('customer_id');
    await admin(relay, 'POST', '/admin/v1/companies/999999/customer', 404, { customer_id: tenant.customerId });
    await admin(relay, 'DELETE', '/admin/v1/companies/999999/customer', 404);
    const { body: company } = await admin(relay, 'GET', `/admin/v1/companies/${tenant.companyId}`, 200);
    expect(company.company.customer_id).toBe(tenant.customerId);
  });

  it('disconnects a paired company: its queued voucher is not handed to the connector until it is paired again', async () => {
    const connectorId = await pairWithConnector(relay, tenant, 'guid-support-books');
    const { body: accepted } = await api(relay, tenant.credential, 'POST', `/api/v1/invoices?company_id=${tenant.companyId}`, 200, { payload: { ...sampleInvoice, voucher_number: 'SUP-1' } });
    const { body } = await admin(relay, 'POST', `/admin/v1/companies/${tenant.companyId}/disconnect`, 200);
    expect(body.company).toMatchObject({ company_id: tenant.companyId, paired: false, connector_id: null, books_company_guid: null, customer_id: tenant.customerId });

    const queue = relay.app.bridge.jobQueue;
    expect(await queue.claimForConnector(connectorId, { limit: 10, leaseMs: 60_000 })).toEqual([]);
    const { body: health } = await api(relay, tenant.credential, 'GET', `/api/v1/companies/${tenant.companyId}/health`, 200);
    expect(health.paired).toBe(false);
    const { body: status } = await api(relay, tenant.credential, 'GET', `/api/v1/transactions/${accepted.transaction_id}`, 200);
    expect(status.transaction.status).toBe('queued');
    await admin(relay, 'POST', `/admin/v1/companies/${tenant.companyId}/disconnect`, 200); // again: still unpaired, no error

    // Paired again, the waiting voucher goes out: the disconnect held it back, it did not drop it.
    await admin(relay, 'POST', `/admin/v1/companies/${tenant.companyId}/pair`, 200, { connector_id: connectorId, books_company_guid: 'guid-support-books' });
    const claimed = await queue.claimForConnector(connectorId, { limit: 10, leaseMs: 60_000 });
    expect(claimed.map((job) => job.job_id)).toEqual([accepted.transaction_id]);
    await admin(relay, 'POST', '/admin/v1/companies/999999/disconnect', 404);
  });

  it('does the same from the admin CLI', async () => {
    const rotated = await run('bridge-rotate-customer-token', [tenant.customerId]);
    expect(rotated).toMatchObject({ id: tenant.customerId, application_id: tenant.applicationId, token: expect.stringMatching(/^lwct_/) });
    await call(relay.app, 'POST', '/api/v1/connectors/enroll', 401, { payload: { token: tenant.customerToken, machine_name: 'CLI-PC', version: '1.0.0' } });
    await enrol(rotated.token, 'CLI-PC');
    await expect(run('bridge-rotate-customer-token', ['cus_missing'])).rejects.toThrow(/No customer cus_missing/);

    expect(await run('bridge-show-application', [tenant.applicationId])).toMatchObject({ id: tenant.applicationId, name: 'Acme Billing' });
    const { body: created } = await api(relay, tenant.credential, 'POST', '/api/v1/companies', 200, { payload: { name: 'Shell Linked' } });
    const id = String(created.company_id);
    expect(await run('bridge-attach-company', [id], { customer: tenant.customerId })).toMatchObject({ customer_id: tenant.customerId, application_id: tenant.applicationId });
    await expect(run('bridge-attach-company', [id])).rejects.toThrow();
    expect(await run('bridge-show-company', [id])).toMatchObject({ company_id: created.company_id, customer_id: tenant.customerId });
    expect(await run('bridge-detach-company', [id])).toMatchObject({ customer_id: null });
    expect(await queuedEvents(created.company_id)).toEqual(['company.linked', 'company.unlinked']);

    await pairWithConnector(relay, tenant, 'guid-cli-books', created.company_id);
    expect(await run('bridge-disconnect-company', [id])).toMatchObject({ paired: false, connector_id: null });
    await expect(run('bridge-disconnect-company', ['abc'])).rejects.toThrow(/integer company id/);
  });
});
