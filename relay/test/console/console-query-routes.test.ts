// The console's read-only operator queries (/admin/v1/console/…) on SQLite and PostgreSQL: message
// search by status and recipient (case-insensitive, LIKE wildcards taken literally), one message with
// its timeline, template draft previews, pulled-data counts per company, webhook endpoints and history.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, describeOnDatabases, startRelay, TEST_OPERATOR_TOKEN, type TestRelay } from '@ledgerwire/test-kit';

const op = { token: TEST_OPERATOR_TOKEN };

describeOnDatabases('console query routes', (kind) => {
  let relay: TestRelay;
  let tenantId: string;
  let apiKey: string;

  beforeEach(async () => {
    // Workers off: messages stay queued, so every status below is the one the test made.
    relay = await startRelay({ database: kind, env: { RELAY_WORKERS: '0', WEBHOOK_ALLOW_PRIVATE_URLS: '1' } });
    const { app } = relay;
    tenantId = (await call(app, 'POST', '/admin/v1/tenants', 201, { ...op, payload: { name: 'Console Co', org_id: 77 } })).body.tenant.id;
    apiKey = (await call(app, 'POST', `/admin/v1/tenants/${tenantId}/api-keys`, 201, op)).body.api_key;
    await call(app, 'POST', `/admin/v1/tenants/${tenantId}/templates`, 201, {
      ...op,
      payload: { event_key: 'welcome', channel: 'email', subject: 'Hi {{name}}', html: '<p>Hi {{name}}</p>', is_active: true },
    });
    for (const [to, transaction] of [['A_B@example.com', 't1'], ['axb@example.com', 't2'], ['zed@example.org', 't3']] as const) {
      await call(app, 'POST', '/api/messages/send', 200, {
        token: apiKey,
        payload: { channel: 'email', to, subject: 'Hi {{name}}', event_key: 'welcome', transaction_id: transaction, data: { name: 'Ann' } },
      });
    }
  });
  afterEach(async () => relay.close());

  const search = (query: string) => call(relay.app, 'GET', `/admin/v1/console/tenants/${tenantId}/messages${query}`, 200, op).then((r) => r.body);

  it('searches messages by recipient (any case, wildcards literal) and by status, newest first', async () => {
    const all = await search('');
    expect(all.total).toBe(3);
    // Newest first; sends within one millisecond tie on created_at, so only non-increasing order is asserted.
    const created = all.messages.map((m: { created_at: string }) => m.created_at);
    expect(created).toEqual([...created].sort().reverse());
    expect(all.messages.map((m: { transaction_id: string }) => m.transaction_id).sort()).toEqual(['t1', 't2', 't3']);
    expect((await search('?recipient=a_b')).messages.map((m: { to: string }) => m.to)).toEqual(['A_B@example.com']);
    expect((await search('?recipient=EXAMPLE.COM')).total).toBe(2);
    expect((await search('?recipient=%25')).total).toBe(0);
    expect((await search('?status=queued&recipient=zed')).messages).toMatchObject([{ to: 'zed@example.org', status: 'queued', event_key: 'welcome' }]);
    expect((await search('?status=sent')).total).toBe(0);
    const [first, second] = [await search('?limit=2'), await search('?limit=2&offset=2')];
    expect(second.total).toBe(3);
    expect([...first.messages, ...second.messages].map((m: { message_id: string }) => m.message_id)).toEqual(all.messages.map((m: { message_id: string }) => m.message_id));
    await call(relay.app, 'GET', `/admin/v1/console/tenants/${tenantId}/messages?status=lost`, 400, op);
    await call(relay.app, 'GET', '/admin/v1/console/tenants/ten_nope/messages', 404, op);
    await call(relay.app, 'GET', `/admin/v1/console/tenants/${tenantId}/messages`, 401);
  });

  it('shows one message with its timeline, and no other tenant’s', async () => {
    const [found] = (await search('?recipient=zed')).messages;
    const { body } = await call(relay.app, 'GET', `/admin/v1/console/tenants/${tenantId}/messages/${found.message_id}`, 200, op);
    expect(body.message).toMatchObject({ message_id: found.message_id, status: 'queued', to: 'zed@example.org', subject: 'Hi Ann' });
    expect(body.message.timeline.map((e: { type: string }) => e.type)).toContain('queued');
    const other = (await call(relay.app, 'POST', '/admin/v1/tenants', 201, { ...op, payload: { name: 'Other', org_id: 78 } })).body.tenant.id;
    await call(relay.app, 'GET', `/admin/v1/console/tenants/${other}/messages/${found.message_id}`, 404, op);
  });

  it('renders a template draft with sample data without saving it', async () => {
    const url = `/admin/v1/console/tenants/${tenantId}/template-previews`;
    const { body } = await call(relay.app, 'POST', url, 200, {
      ...op,
      payload: { subject: 'Order {{order}}', html: '<p>{{name}}</p>', text: 'For {{name}}', data: { order: 'A-1', name: '<Ann & co>' } },
    });
    expect(body).toEqual({ success: true, subject: 'Order A-1', html: '<p>&lt;Ann &amp; co&gt;</p>', text: 'For <Ann & co>', missing_variables: [] });
    const broken = await call(relay.app, 'POST', url, 422, { ...op, payload: { subject: 'x', html: '{{#if a}}open', data: {} } });
    expect(broken.body.error.code).toBe('template_syntax_invalid');
    await call(relay.app, 'POST', '/admin/v1/console/tenants/ten_nope/template-previews', 404, { ...op, payload: { subject: 's', html: 'h' } });
    const templates = (await call(relay.app, 'GET', `/admin/v1/tenants/${tenantId}/templates`, 200, op)).body.templates;
    expect(templates).toMatchObject([{ subject: 'Hi {{name}}', html: '<p>Hi {{name}}</p>' }]);
  });

  it('derives sample data from a draft’s variables and names the variables the data lacks', async () => {
    const draft = {
      subject: 'Invoice {{invoice.number}} for {{customer.name}}',
      html: '<ul>{{#each items}}<li>{{name}} × {{qty}} {{../currency}}</li>{{/each}}</ul>{{#if paid}}Paid{{else}}Due {{due_date}}{{/if}}{{#with customer}}{{email}}{{/with}}',
      text: '{{#each tags as |tag|}}{{tag}} {{/each}}{{@index}}',
    };
    const { body: sample } = await call(relay.app, 'POST', `/admin/v1/console/tenants/${tenantId}/template-samples`, 200, { ...op, payload: draft });
    expect(sample.variables).toEqual([
      { path: 'invoice.number', kind: 'value' },
      { path: 'customer.name', kind: 'value' },
      { path: 'items', kind: 'list' },
      { path: 'items[].name', kind: 'value' },
      { path: 'items[].qty', kind: 'value' },
      { path: 'currency', kind: 'value' },
      { path: 'paid', kind: 'section' },
      { path: 'due_date', kind: 'value' },
      { path: 'customer', kind: 'section' },
      { path: 'customer.email', kind: 'value' },
      { path: 'tags', kind: 'list' },
      { path: 'tags[]', kind: 'value' },
    ]);
    expect(sample.sample_data).toMatchObject({
      invoice: { number: expect.any(String) },
      customer: { name: expect.any(String), email: expect.stringContaining('@') },
      items: [{ name: 'Item 1', qty: 2 }, { name: 'Item 2', qty: 2 }],
      paid: true,
      tags: [expect.any(String), expect.any(String)],
    });

    const url = `/admin/v1/console/tenants/${tenantId}/template-previews`;
    const fitted = (await call(relay.app, 'POST', url, 200, { ...op, payload: { ...draft, data: sample.sample_data } })).body;
    expect(fitted.missing_variables).toEqual([]);
    expect(fitted.html).toContain('<li>Item 1 × 2');
    const partial = { invoice: { number: 'A-7' }, items: [{ name: 'Tea', qty: 1 }, { name: 'Sugar' }], paid: false };
    const warned = (await call(relay.app, 'POST', url, 200, { ...op, payload: { ...draft, data: partial } })).body;
    // customer is missing as a whole (its fields are not listed again); one item lacks qty.
    expect(warned.missing_variables).toEqual(['items[].qty', 'currency', 'due_date', 'customer', 'tags']);
    expect(warned.subject).toBe('Invoice A-7 for ');

    const broken = await call(relay.app, 'POST', `/admin/v1/console/tenants/${tenantId}/template-samples`, 422, { ...op, payload: { subject: 'x', html: '{{#each items}}' } });
    expect(broken.body.error.code).toBe('template_syntax_invalid');
    await call(relay.app, 'POST', '/admin/v1/console/tenants/ten_nope/template-samples', 404, { ...op, payload: { subject: 's', html: 'h' } });
  });

  it('counts pulled vouchers and masters per company, with zeros where nothing was pulled', async () => {
    const { app } = relay;
    const applicationId = (await call(app, 'POST', '/admin/v1/applications', 201, { ...op, payload: { name: 'App' } })).body.application.id;
    const { credential } = (await call(app, 'POST', `/admin/v1/applications/${applicationId}/keys`, 201, { ...op, payload: { environment: 'test', capabilities: [] } })).body;
    const busy = (await call(app, 'POST', '/api/v1/companies', 200, { token: credential, payload: { name: 'Busy' } })).body.company_id;
    const quiet = (await call(app, 'POST', '/api/v1/companies', 200, { token: credential, payload: { name: 'Quiet' } })).body.company_id;
    const db = app.database.db;
    const at = (minute: number) => `2026-04-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
    const voucher = (n: number, status: 'pending' | 'acknowledged', deleted: number) => ({
      company_id: busy,
      transaction_id: `pv-${n}`,
      books_voucher_guid: `guid-${n}`,
      alter_id: '1',
      voucher_kind: 'sales',
      voucher_type: 'Sales',
      voucher_number: `S-${n}`,
      voucher_date: '20260401',
      party_ledger: 'Cash',
      data: '{}',
      status,
      acknowledged_alter_id: null,
      acknowledged_at: null,
      deleted,
      created_at: at(n),
      updated_at: at(n),
    });
    await db.insertInto('pulled_vouchers').values([voucher(1, 'pending', 0), voucher(2, 'pending', 0), voucher(3, 'acknowledged', 0), voucher(4, 'pending', 1)]).execute();
    await db
      .insertInto('pulled_masters')
      .values({ company_id: busy, master_type: 'ledger', name: 'Cash', books_master_guid: 'm-1', master_id: '1', alter_id: '1', parent: null, reserved_name: null, data: '{}', deleted: 0, created_at: at(9), updated_at: at(9) })
      .execute();

    const { body } = await call(app, 'GET', `/admin/v1/console/pulled-data?application_id=${applicationId}`, 200, op);
    expect(body.companies).toEqual([
      { company_id: busy, vouchers_pending: 2, vouchers_acknowledged: 1, vouchers_deleted: 1, masters: 1, masters_deleted: 0, last_pulled_at: at(9) },
      { company_id: quiet, vouchers_pending: 0, vouchers_acknowledged: 0, vouchers_deleted: 0, masters: 0, masters_deleted: 0, last_pulled_at: null },
    ]);
    expect((await call(app, 'GET', '/admin/v1/console/pulled-data?application_id=app_none', 200, op)).body.companies).toEqual([]);
  });

  it('lists a tenant’s webhook endpoints (no secrets) and their delivery history', async () => {
    const { app } = relay;
    const created = (await call(app, 'POST', `/admin/v1/tenants/${tenantId}/webhooks`, 201, { ...op, payload: { url: 'http://127.0.0.1:9/hook' } })).body.webhook;
    const owner = `owner_kind=tenant&owner_id=${tenantId}`;
    const { body } = await call(app, 'GET', `/admin/v1/console/webhooks?${owner}`, 200, op);
    expect(body.webhooks).toMatchObject([{ id: created.id, url: 'http://127.0.0.1:9/hook', enabled: true }]);
    expect(JSON.stringify(body)).not.toContain(created.secret);
    expect((await call(app, 'GET', `/admin/v1/console/webhooks/${created.id}/deliveries?${owner}`, 200, op)).body).toEqual({ success: true, total: 0, deliveries: [] });
    await call(app, 'GET', `/admin/v1/console/webhooks/${created.id}/deliveries?owner_kind=application&owner_id=${tenantId}`, 404, op);
    await call(app, 'GET', '/admin/v1/console/webhooks?owner_kind=robot&owner_id=x', 400, op);
  });
});
