// POST /api/messages/send against the contract's Errors table, exactly: statuses and bodies, the
// validation shape, template resolution (and the test_email fallback), Handlebars escaping,
// idempotent replay and its 409, and the tenant-scoped message read.
import { sql } from 'kysely';
import { MIGRATION_LOCK_KEY } from '../../src/db/migrate.js';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, describeOnDatabases, TEST_OPERATOR_TOKEN } from '@ledgerwire/test-kit';
import { createTemplate, provisionTenant, sendBody, startMessagingRelay, type MessagingTestRelay, type ProvisionedTenant } from './support/messaging-test-relay.js';

describeOnDatabases('messaging send contract', (kind) => {
  let relay: MessagingTestRelay;
  let tenant: ProvisionedTenant;

  beforeEach(async () => {
    relay = await startMessagingRelay(kind);
    tenant = await provisionTenant(relay.app);
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready', html: '<p>Hi {{name}}, invoice {{invoice}}</p>', text: 'Hi {{name}}' });
  });
  afterEach(async () => relay.close());

  it('queues a valid send: 200 {message_id, status: queued}', async () => {
    const { body } = await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: sendBody() });
    expect(Object.keys(body).sort()).toEqual(['message_id', 'status']);
    expect(body.message_id).toMatch(/^msg_[0-9a-f]{24}$/);
    expect(body.status).toBe('queued');
  });

  it('401 {"error":"Missing API Key"} without Authorization, and with an empty bearer', async () => {
    const missing = await call(relay.app, 'POST', '/api/messages/send', 401, { payload: sendBody() });
    expect(missing.body).toEqual({ error: 'Missing API Key' });
    const empty = await call(relay.app, 'POST', '/api/messages/send', 401, { payload: sendBody(), headers: { authorization: 'Bearer ' } });
    expect(empty.body).toEqual({ error: 'Missing API Key' });
  });

  it('401 {"error":"Invalid API Key"} for an unknown, a tampered and a revoked key', async () => {
    for (const key of ['lwm_nosuchkey0000000000000000000000', `${tenant.apiKey.slice(0, -2)}xx`, 'something-else']) {
      const { body } = await call(relay.app, 'POST', '/api/messages/send', 401, { token: key, payload: sendBody() });
      expect(body).toEqual({ error: 'Invalid API Key' });
    }
    await call(relay.app, 'DELETE', `/admin/v1/tenants/${tenant.id}/api-keys/${tenant.prefix}`, 200, { token: TEST_OPERATOR_TOKEN });
    const revoked = await call(relay.app, 'POST', '/api/messages/send', 401, { token: tenant.apiKey, payload: sendBody() });
    expect(revoked.body).toEqual({ error: 'Invalid API Key' });
  });

  it('403 {"error":"Tenant inactive"} for a suspended tenant’s key, and 200 again once reactivated', async () => {
    await call(relay.app, 'PATCH', `/admin/v1/tenants/${tenant.id}`, 200, { token: TEST_OPERATOR_TOKEN, payload: { status: 'suspended' } });
    const { body } = await call(relay.app, 'POST', '/api/messages/send', 403, { token: tenant.apiKey, payload: sendBody() });
    expect(body).toEqual({ error: 'Tenant inactive' });
    await call(relay.app, 'PATCH', `/admin/v1/tenants/${tenant.id}`, 200, { token: TEST_OPERATOR_TOKEN, payload: { status: 'active' } });
    await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: sendBody() });
  });

  it('422 in the framework shape {message, errors:{field:[...]}} for missing and malformed fields', async () => {
    const { body } = await call(relay.app, 'POST', '/api/messages/send', 422, { token: tenant.apiKey, payload: { channel: 'email', to: 'ada@example.com' } });
    expect(Object.keys(body).sort()).toEqual(['errors', 'message']);
    // subject may be left out: the template's subject is used then (see the template subject test).
    expect(body.errors).toEqual({
      event_key: ['The event_key field is required.'],
      transaction_id: ['The transaction_id field is required.'],
    });
    expect(body.message).toBe('The event_key field is required. (and 1 more error)');

    const badEmail = await call(relay.app, 'POST', '/api/messages/send', 422, { token: tenant.apiKey, payload: sendBody({ to: 'not-an-address' }) });
    expect(badEmail.body).toEqual({ message: 'The to field must be a valid email address.', errors: { to: ['The to field must be a valid email address.'] } });

    const badData = await call(relay.app, 'POST', '/api/messages/send', 422, { token: tenant.apiKey, payload: sendBody({ data: [1, 2] }) });
    expect(badData.body.errors).toEqual({ data: ['The data field must be an object.'] });
  });

  it('422 says only email is routable for a planned channel', async () => {
    for (const channel of ['sms', 'whatsapp', 'push']) {
      const { body } = await call(relay.app, 'POST', '/api/messages/send', 422, { token: tenant.apiKey, payload: sendBody({ channel }) });
      expect(body.errors.channel).toEqual([`The channel field must be email: only email is routable today (${channel} is planned).`]);
    }
    const unknown = await call(relay.app, 'POST', '/api/messages/send', 422, { token: tenant.apiKey, payload: sendBody({ channel: 'fax' }) });
    expect(unknown.body.errors.channel[0]).toContain('only email is routable today');
  });

  it('422 {"error":"Invalid template"}, naming the event_key and channel, for an unknown event_key, an inactive template and another tenant’s template', async () => {
    const unknown = await call(relay.app, 'POST', '/api/messages/send', 422, { token: tenant.apiKey, payload: sendBody({ event_key: 'nope' }) });
    expect(unknown.body).toEqual({ error: 'Invalid template', event_key: 'nope', channel: 'email' });

    await createTemplate(relay.app, tenant.id, { event_key: 'paused', is_active: false });
    const inactive = await call(relay.app, 'POST', '/api/messages/send', 422, { token: tenant.apiKey, payload: sendBody({ event_key: 'paused' }) });
    expect(inactive.body).toEqual({ error: 'Invalid template', event_key: 'paused', channel: 'email' });

    const other = await provisionTenant(relay.app);
    await createTemplate(relay.app, other.id, { event_key: 'only_theirs' });
    const cross = await call(relay.app, 'POST', '/api/messages/send', 422, { token: tenant.apiKey, payload: sendBody({ event_key: 'only_theirs' }) });
    expect(cross.body).toEqual({ error: 'Invalid template', event_key: 'only_theirs', channel: 'email' });
  });

  it('a send without a subject uses the template’s subject, rendered with its data; a send’s own subject wins', async () => {
    await createTemplate(relay.app, tenant.id, { event_key: 'receipt', subject: 'Receipt {{invoice}} for {{name}}' });
    const withoutSubject = sendBody({ event_key: 'receipt', subject: undefined });
    const { body } = await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: withoutSubject });
    const message = await call(relay.app, 'GET', `/api/messages/${body.message_id}`, 200, { token: tenant.apiKey });
    expect(message.body.subject).toBe('Receipt INV-1 for Ada');
    const own = await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: sendBody({ event_key: 'receipt', subject: 'Mine {{name}}' }) });
    expect((await call(relay.app, 'GET', `/api/messages/${own.body.message_id}`, 200, { token: tenant.apiKey })).body.subject).toBe('Mine Ada');
  });

  it('renders subject and bodies with Handlebars, escaping values only in HTML', async () => {
    const { body } = await call(relay.app, 'POST', '/api/messages/send', 200, {
      token: tenant.apiKey,
      payload: sendBody({ subject: 'Invoice {{invoice}} for {{name}}', data: { name: '<b>Ada & Co</b>', invoice: 'A&B' } }),
    });
    const message = await call(relay.app, 'GET', `/api/messages/${body.message_id}`, 200, { token: tenant.apiKey });
    expect(message.body.subject).toBe('Invoice A&B for <b>Ada & Co</b>');
    const rows = await relay.app.database.db.selectFrom('msg_messages').select(['html', 'text']).where('id', '=', body.message_id).executeTakeFirstOrThrow();
    expect(rows.html).toBe('<p>Hi &lt;b&gt;Ada &amp; Co&lt;/b&gt;, invoice A&amp;B</p>');
    expect(rows.text).toBe('Hi <b>Ada & Co</b>');
  });

  it('replays a repeat: 200, same message_id, current status, nothing new', async () => {
    const payload = sendBody();
    const first = await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload });
    await relay.app.messaging.dispatchLoop.runOnce();
    const again = await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: { ...payload, data: { invoice: 'INV-1', name: 'Ada' } } });
    expect(again.body).toEqual({ message_id: first.body.message_id, status: 'sent' });
    const count = await relay.app.database.db.selectFrom('msg_messages').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('a different action is a different business event; the same id with another body is 409', async () => {
    const payload = sendBody();
    const first = await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload });
    const reminder = await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: { ...payload, action: 'reminder' } });
    expect(reminder.body.message_id).not.toBe(first.body.message_id);
    const conflict = await call(relay.app, 'POST', '/api/messages/send', 409, { token: tenant.apiKey, payload: { ...payload, to: 'bob@example.com' } });
    expect(conflict.body.error).toContain(`transaction_id "${String(payload['transaction_id'])}" with action "send" was already used`);
    expect(Object.keys(conflict.body)).toEqual(['error']);
  });

  it('the same transaction_id in two tenants makes two messages', async () => {
    const other = await provisionTenant(relay.app);
    await createTemplate(relay.app, other.id, { event_key: 'invoice_ready' });
    const payload = sendBody();
    const a = await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload });
    const b = await call(relay.app, 'POST', '/api/messages/send', 200, { token: other.apiKey, payload });
    expect(a.body.message_id).not.toBe(b.body.message_id);
  });

  it('500 {"error":"Dispatch failed"} only when the message cannot be stored; the same transaction_id then succeeds once', async () => {
    const { db, capabilities } = relay.app.database;
    const payload = sendBody();
    const breakStorageAndSend = async () => {
      await sql`alter table msg_messages rename to msg_messages_away`.execute(db);
      try {
        const failed = await call(relay.app, 'POST', '/api/messages/send', 500, { token: tenant.apiKey, payload });
        expect(failed.body).toEqual({ error: 'Dispatch failed' });
      } finally {
        await sql`alter table msg_messages_away rename to msg_messages`.execute(db);
      }
    };
    if (capabilities.migrationSerialisation === 'advisory-lock') {
      // A shared PostgreSQL: other tests' migrations introspect every schema, so hold their lock (on a
      // connection of its own) while the table is away, and none of them sees it vanish mid-scan.
      await db.connection().execute(async (connection) => {
        await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`.execute(connection);
        try {
          await breakStorageAndSend();
        } finally {
          await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.execute(connection);
        }
      });
    } else {
      await breakStorageAndSend();
    }
    const first = await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload });
    const again = await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload });
    expect(again.body.message_id).toBe(first.body.message_id);
  });

  it('GET /api/messages/{id}: status, timestamps and timeline for the owner; 404 for another tenant', async () => {
    const { body } = await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: sendBody() });
    await relay.app.messaging.dispatchLoop.runOnce();
    const message = await call(relay.app, 'GET', `/api/messages/${body.message_id}`, 200, { token: tenant.apiKey });
    expect(message.body).toMatchObject({ message_id: body.message_id, status: 'sent', provider: 'outbox', attempts: 1, template_fallback: false });
    expect(message.body.timestamps.sent_at).toEqual(expect.any(String));
    expect(message.body.timeline.map((e: { type: string }) => e.type)).toEqual(['queued', 'sent']);

    const other = await provisionTenant(relay.app);
    const hidden = await call(relay.app, 'GET', `/api/messages/${body.message_id}`, 404, { token: other.apiKey });
    expect(hidden.body).toEqual({ error: 'Message not found' });
  });
});

describeOnDatabases('test_email onboarding fallback', (kind) => {
  let relay: MessagingTestRelay;
  let tenant: ProvisionedTenant;

  beforeEach(async () => {
    relay = await startMessagingRelay(kind);
    tenant = await provisionTenant(relay.app);
  });
  afterEach(async () => relay.close());

  it('renders the tenant’s own test_email while it has no other active template on the channel', async () => {
    await createTemplate(relay.app, tenant.id, { event_key: 'test_email', html: '<p>Test for {{name}}</p>' });
    const { body } = await call(relay.app, 'POST', '/api/messages/send', 200, { token: tenant.apiKey, payload: sendBody({ event_key: 'welcome' }) });
    const message = await call(relay.app, 'GET', `/api/messages/${body.message_id}`, 200, { token: tenant.apiKey });
    expect(message.body).toMatchObject({ event_key: 'welcome', template_fallback: true });
    expect(message.body.timeline[0].detail).toEqual({ template_fallback: 'test_email', requested_event_key: 'welcome' });
  });

  it('stops falling back once the tenant has a real template: a typo is Invalid template', async () => {
    await createTemplate(relay.app, tenant.id, { event_key: 'test_email' });
    await createTemplate(relay.app, tenant.id, { event_key: 'welcome' });
    const { body } = await call(relay.app, 'POST', '/api/messages/send', 422, { token: tenant.apiKey, payload: sendBody({ event_key: 'welcom' }) });
    expect(body).toEqual({ error: 'Invalid template', event_key: 'welcom', channel: 'email' });
  });

  it('never uses another tenant’s test_email', async () => {
    const other = await provisionTenant(relay.app);
    await createTemplate(relay.app, other.id, { event_key: 'test_email' });
    const { body } = await call(relay.app, 'POST', '/api/messages/send', 422, { token: tenant.apiKey, payload: sendBody({ event_key: 'welcome' }) });
    expect(body).toEqual({ error: 'Invalid template', event_key: 'welcome', channel: 'email' });
  });
});
