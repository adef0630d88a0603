// What support sees and does for a messaging tenant through the console's operator API, on SQLite and
// PostgreSQL: messages found by tag and by metadata, refused sends with their reason, and the
// suppression list read and cleared (by a support operator, audited).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, describeOnDatabases, startRelay, TEST_OPERATOR_TOKEN, type TestRelay } from '@ledgerwire/test-kit';

const op = { token: TEST_OPERATOR_TOKEN };

describeOnDatabases('console messaging support', (kind) => {
  let relay: TestRelay;
  let tenantId: string;
  let apiKey: string;

  beforeEach(async () => {
    relay = await startRelay({ database: kind, env: { RELAY_WORKERS: '0' } });
    const { app } = relay;
    tenantId = (await call(app, 'POST', '/admin/v1/tenants', 201, { ...op, payload: { name: 'Support Co', org_id: 78 } })).body.tenant.id;
    apiKey = (await call(app, 'POST', `/admin/v1/tenants/${tenantId}/api-keys`, 201, op)).body.api_key;
    await call(app, 'POST', `/admin/v1/tenants/${tenantId}/templates`, 201, {
      ...op,
      payload: { event_key: 'welcome', channel: 'email', subject: 'Hi {{name}}', html: '<p>Hi {{name}}</p>', is_active: true },
    });
  });
  afterEach(async () => relay.close());

  const send = (payload: Record<string, unknown>, status = 200) =>
    call(relay.app, 'POST', '/api/messages/send', status, {
      token: apiKey,
      payload: { channel: 'email', to: 'ann@example.com', event_key: 'welcome', data: { name: 'Ann' }, ...payload },
    });

  it('finds messages by tag and by part of a metadata value', async () => {
    await send({ transaction_id: 't1', tags: ['invoice'], metadata: { invoice_id: 'INV-1042' } });
    await send({ transaction_id: 't2', tags: ['reminder'], metadata: { invoice_id: 'INV-2000' } });
    const byTag = await call(relay.app, 'GET', `/admin/v1/console/tenants/${tenantId}/messages?tag=invoice`, 200, op);
    expect(byTag.body.messages.map((m: { transaction_id: string }) => m.transaction_id)).toEqual(['t1']);
    expect(byTag.body.messages[0]).toMatchObject({ tags: ['invoice'], metadata: { invoice_id: 'INV-1042' } });
    const byMetadata = await call(relay.app, 'GET', `/admin/v1/console/tenants/${tenantId}/messages?metadata=inv-20`, 200, op);
    expect(byMetadata.body.messages.map((m: { transaction_id: string }) => m.transaction_id)).toEqual(['t2']);
  });

  it('lists refused sends with the reason the sender was given, newest first', async () => {
    await send({ transaction_id: 't1', event_key: 'welcom' }, 422);
    await send({ transaction_id: 't2', attachments: [{ filename: 'run.exe', content: 'TVo=', content_type: 'application/octet-stream' }] }, 422);
    const { body } = await call(relay.app, 'GET', `/admin/v1/console/tenants/${tenantId}/refused-sends`, 200, op);
    expect(body.refused_sends).toHaveLength(2);
    expect(body.refused_sends.map((r: { transaction_id: string }) => r.transaction_id).sort()).toEqual(['t1', 't2']);
    const invalid = body.refused_sends.find((r: { transaction_id: string }) => r.transaction_id === 't1');
    expect(invalid).toMatchObject({ code: 'invalid_template', status: 422, event_key: 'welcom', channel: 'email', to: 'ann@example.com' });
    expect(invalid.reason).toContain('Invalid template (event_key=welcom, channel=email)');
    const attachment = body.refused_sends.find((r: { transaction_id: string }) => r.transaction_id === 't2');
    expect(attachment).toMatchObject({ code: 'validation_failed' });
    expect(attachment.reason).toContain('a type mail systems refuse');
  });

  it('shows and clears the suppression list; a support operator may clear, a viewer may not', async () => {
    await relay.app.database.db
      .insertInto('msg_suppressions')
      .values({ tenant_id: tenantId, email: 'gone@example.com', reason: 'hard_bounce', message_id: null, created_at: new Date().toISOString() })
      .execute();
    const listed = await call(relay.app, 'GET', `/admin/v1/tenants/${tenantId}/suppressions`, 200, op);
    expect(listed.body).toEqual({ success: true, suppressions: [{ email: 'gone@example.com', reason: 'hard_bounce', created_at: expect.any(String) }] });
    const viewer = await call(relay.app, 'POST', '/admin/v1/operators', 201, { ...op, payload: { name: 'Vera', role: 'viewer' } });
    await call(relay.app, 'DELETE', `/admin/v1/tenants/${tenantId}/suppressions/gone@example.com`, 403, { token: viewer.body.token });
    const support = await call(relay.app, 'POST', '/admin/v1/operators', 201, { ...op, payload: { name: 'Sam', role: 'support' } });
    const removed = await call(relay.app, 'DELETE', `/admin/v1/tenants/${tenantId}/suppressions/gone@example.com`, 200, { token: support.body.token });
    expect(removed.body).toEqual({ success: true, email: 'gone@example.com', status: 'removed' });
    await call(relay.app, 'DELETE', `/admin/v1/tenants/${tenantId}/suppressions/gone@example.com`, 404, { token: support.body.token });
    expect((await call(relay.app, 'GET', `/admin/v1/tenants/${tenantId}/suppressions`, 200, op)).body.suppressions).toEqual([]);
  });
});
