// The messaging operator API under /admin/v1 (tenants, API keys, templates with preview, event rules,
// status webhooks) and the admin CLI commands over the same services.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { adminCommands } from '../../src/cli/admin-commands.js';
import { sha256Hex } from '../../src/security/secret-hash.js';
import { call, describeOnDatabases, midMinute, TEST_OPERATOR_TOKEN, testClock, type TestClock } from '@ledgerwire/test-kit';
import { AUTH_CACHE_TTL_MS } from '../../src/messaging/services/tenants/tenant-service.js';
import { startMessagingRelay, type MessagingTestRelay } from './support/messaging-test-relay.js';

const op = { token: TEST_OPERATOR_TOKEN };

describeOnDatabases('messaging operator API', (kind) => {
  let relay: MessagingTestRelay;
  let clock: TestClock;

  beforeEach(async () => {
    clock = testClock(midMinute());
    relay = await startMessagingRelay(kind, { WEBHOOK_ALLOW_PRIVATE_URLS: '1' }, { now: clock.now });
  });
  afterEach(async () => relay.close());

  it('tenants: create → 201 {tenant}, list, get, patch; org_id unique; operator token required', async () => {
    await call(relay.app, 'POST', '/admin/v1/tenants', 401, { payload: { name: 'Acme', org_id: 7 } });
    const created = await call(relay.app, 'POST', '/admin/v1/tenants', 201, { ...op, payload: { name: 'Acme', org_id: 7, limits: { daily_quota: 500 } } });
    const tenant = created.body.tenant;
    expect(tenant).toMatchObject({ name: 'Acme', org_id: 7, status: 'active', provider_order: ['outbox'] });
    expect(tenant.id).toMatch(/^ten_/);
    expect(tenant.limits).toEqual({ burst_per_minute: 100, sustained_per_minute: 20, daily_quota: 500, events_per_minute: 100, webhooks_per_minute: 300 });
    const duplicate = await call(relay.app, 'POST', '/admin/v1/tenants', 409, { ...op, payload: { name: 'Other', org_id: 7 } });
    expect(duplicate.body.error.code).toBe('org_id_taken');
    const invalid = await call(relay.app, 'POST', '/admin/v1/tenants', 400, { ...op, payload: { name: '', org_id: 'x' } });
    expect(invalid.body.success).toBe(false);

    expect((await call(relay.app, 'GET', '/admin/v1/tenants', 200, op)).body.tenants).toHaveLength(1);
    const patched = await call(relay.app, 'PATCH', `/admin/v1/tenants/${tenant.id}`, 200, { ...op, payload: { status: 'suspended', name: 'Acme Ltd' } });
    expect(patched.body.tenant).toMatchObject({ status: 'suspended', name: 'Acme Ltd' });
    expect((await call(relay.app, 'GET', `/admin/v1/tenants/${tenant.id}`, 200, op)).body.tenant.status).toBe('suspended');
    const missing = await call(relay.app, 'GET', '/admin/v1/tenants/ten_nope', 404, op);
    expect(missing.body.error.code).toBe('tenant_not_found');
  });

  it('API keys: shown once, stored as prefix + SHA-256, listed by prefix, revoked by prefix', async () => {
    const tenant = (await call(relay.app, 'POST', '/admin/v1/tenants', 201, { ...op, payload: { name: 'Keys', org_id: 8 } })).body.tenant;
    const key = await call(relay.app, 'POST', `/admin/v1/tenants/${tenant.id}/api-keys`, 201, op);
    expect(key.body.api_key.startsWith(key.body.prefix)).toBe(true);
    const row = await relay.app.database.db.selectFrom('msg_api_keys').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ prefix: key.body.prefix, key_hash: sha256Hex(key.body.api_key), revoked_at: null });
    expect(JSON.stringify(row)).not.toContain(key.body.api_key);
    const listed = await call(relay.app, 'GET', `/admin/v1/tenants/${tenant.id}/api-keys`, 200, op);
    expect(listed.body.api_keys).toEqual([{ prefix: key.body.prefix, created_at: expect.any(String), revoked_at: null, mode: 'live' }]);
    const revoked = await call(relay.app, 'DELETE', `/admin/v1/tenants/${tenant.id}/api-keys/${key.body.prefix}`, 200, op);
    expect(revoked.body.api_key.revoked_at).toEqual(expect.any(String));
    await call(relay.app, 'DELETE', `/admin/v1/tenants/${tenant.id}/api-keys/lwm_nothere`, 404, op);
  });

  it('templates: create, list, get, patch, preview (HTML-escaped), one active per event_key and channel, syntax checked', async () => {
    const tenant = (await call(relay.app, 'POST', '/admin/v1/tenants', 201, { ...op, payload: { name: 'Tpl', org_id: 9 } })).body.tenant;
    const base = `/admin/v1/tenants/${tenant.id}/templates`;
    const created = await call(relay.app, 'POST', base, 201, {
      ...op,
      payload: { event_key: 'welcome', channel: 'email', subject: 'Hi {{name}}', html: '<h1>{{name}}</h1>', text: 'Hi {{name}}', is_active: true },
    });
    const template = created.body.template;
    expect(template).toMatchObject({ event_key: 'welcome', channel: 'email', is_active: true, tenant_id: tenant.id });
    const second = await call(relay.app, 'POST', base, 409, { ...op, payload: { event_key: 'welcome', channel: 'email', subject: 's', html: 'h', is_active: true } });
    expect(second.body.error.code).toBe('template_active_conflict');
    const broken = await call(relay.app, 'POST', base, 422, { ...op, payload: { event_key: 'bad', channel: 'email', subject: 's', html: '{{#if}}', is_active: true } });
    expect(broken.body.error.code).toBe('template_syntax_invalid');

    const preview = await call(relay.app, 'POST', `${base}/${template.id}/preview`, 200, { ...op, payload: { data: { name: '<Ada & Bob>' } } });
    expect(preview.body).toEqual({ success: true, subject: 'Hi <Ada & Bob>', html: '<h1>&lt;Ada &amp; Bob&gt;</h1>', text: 'Hi <Ada & Bob>' });

    const patched = await call(relay.app, 'PATCH', `${base}/${template.id}`, 200, { ...op, payload: { is_active: false, html: '<h2>{{name}}</h2>' } });
    expect(patched.body.template).toMatchObject({ is_active: false, html: '<h2>{{name}}</h2>' });
    await call(relay.app, 'POST', base, 201, { ...op, payload: { event_key: 'welcome', channel: 'email', subject: 's', html: 'h', is_active: true } });
    expect((await call(relay.app, 'GET', base, 200, op)).body.templates).toHaveLength(2);
    expect((await call(relay.app, 'GET', `${base}/${template.id}`, 200, op)).body.template.id).toBe(template.id);
    await call(relay.app, 'GET', `${base}/tpl_nope`, 404, op);
  });

  it('event rules: create, list, patch, delete', async () => {
    const tenant = (await call(relay.app, 'POST', '/admin/v1/tenants', 201, { ...op, payload: { name: 'Rules', org_id: 10 } })).body.tenant;
    const base = `/admin/v1/tenants/${tenant.id}/event-rules`;
    const created = await call(relay.app, 'POST', base, 201, {
      ...op,
      payload: { event_name: 'invoice.paid', channel: 'email', event_key: 'receipt', to: '{{data.customer.email}}', subject: 'Receipt {{data.number}}' },
    });
    expect(created.body.event_rule).toMatchObject({ event_name: 'invoice.paid', to: '{{data.customer.email}}', is_active: true });
    const id = created.body.event_rule.id;
    expect((await call(relay.app, 'PATCH', `${base}/${id}`, 200, { ...op, payload: { is_active: false } })).body.event_rule.is_active).toBe(false);
    expect((await call(relay.app, 'GET', base, 200, op)).body.event_rules).toHaveLength(1);
    await call(relay.app, 'DELETE', `${base}/${id}`, 200, op);
    expect((await call(relay.app, 'GET', base, 200, op)).body.event_rules).toHaveLength(0);
  });

  it('status webhooks: 201 with the signing secret; message.* types only', async () => {
    const tenant = (await call(relay.app, 'POST', '/admin/v1/tenants', 201, { ...op, payload: { name: 'Hooks', org_id: 11 } })).body.tenant;
    const base = `/admin/v1/tenants/${tenant.id}/webhooks`;
    const created = await call(relay.app, 'POST', base, 201, { ...op, payload: { url: 'http://127.0.0.1:9/hook', events: ['message.delivered', 'message.bounced'] } });
    expect(created.body.webhook).toMatchObject({ url: 'http://127.0.0.1:9/hook', events: ['message.delivered', 'message.bounced'], enabled: true });
    expect(created.body.webhook.secret).toMatch(/^whsec_/);
    const wrong = await call(relay.app, 'POST', base, 422, { ...op, payload: { url: 'http://127.0.0.1:9/hook', events: ['connector.online'] } });
    expect(wrong.body.error.code).toBe('webhook_events_invalid');
    const listed = await call(relay.app, 'GET', base, 200, op);
    expect(listed.body.webhooks).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.webhook.secret);
    await call(relay.app, 'DELETE', `${base}/${created.body.webhook.id}`, 200, op);
  });

  it('the admin CLI creates a tenant, a key and a template through the same services', async () => {
    const context = (args: string[], options: Record<string, string> = {}) => ({ config: relay.config, database: relay.app.database, args, options });
    const created = (await adminCommands['tenant-create']!.run(context([], { name: 'CLI', 'org-id': '77', 'provider-order': 'outbox' }))) as { tenant: { id: string } };
    const key = (await adminCommands['api-key-create']!.run(context([created.tenant.id]))) as { api_key: string };
    await adminCommands['template-create']!.run(context([created.tenant.id], { 'event-key': 'invoice_ready', subject: 'S', html: '<p>{{name}}</p>' }));
    const sent = await call(relay.app, 'POST', '/api/messages/send', 200, {
      token: key.api_key,
      payload: { channel: 'email', to: 'ada@example.com', subject: 'S', event_key: 'invoice_ready', transaction_id: 'cli-1' },
    });
    expect(sent.body.status).toBe('queued');
    await expect(adminCommands['tenant-create']!.run(context([], { name: 'CLI2' }))).rejects.toThrow('--org-id is required');
    await adminCommands['tenant-update']!.run(context([created.tenant.id], { status: 'suspended' }));
    // The CLI is another process as far as the relay's short auth cache is concerned.
    clock.advance(AUTH_CACHE_TTL_MS + 1);
    await call(relay.app, 'POST', '/api/messages/send', 403, { token: key.api_key, payload: { channel: 'email', to: 'a@b.co', subject: 'S', event_key: 'x', transaction_id: 'cli-2' } });
  });
});
