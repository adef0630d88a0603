// POST /api/events per the contract (field bounds → 422, org_id of another tenant → 403, 202
// accepted, repeat → 200 duplicate) and asynchronous processing: matching event rules create
// messages with transaction_id = event_id, so reprocessing never sends twice.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, describeOnDatabases, TEST_OPERATOR_TOKEN } from '@ledgerwire/test-kit';
import { createTemplate, provisionTenant, startMessagingRelay, type MessagingTestRelay, type ProvisionedTenant } from './support/messaging-test-relay.js';

function eventBody(tenant: ProvisionedTenant, overrides: Record<string, unknown> = {}) {
  return {
    event_id: `evt-${Math.random().toString(36).slice(2)}`,
    event_name: 'invoice.paid',
    source: 'billing',
    org_id: tenant.orgId,
    actor: { type: 'user', id: 42 },
    data: { customer: { email: 'ada@example.com', name: 'Ada' }, invoice: 'INV-9' },
    occurred_at: '2026-11-20T10:00:00Z',
    ...overrides,
  };
}

describeOnDatabases('event ingestion', (kind) => {
  let relay: MessagingTestRelay;
  let tenant: ProvisionedTenant;

  beforeEach(async () => {
    relay = await startMessagingRelay(kind);
    tenant = await provisionTenant(relay.app);
  });
  afterEach(async () => relay.close());

  it('202 {"status":"accepted"}, then 200 {"status":"duplicate"} for the same event_id', async () => {
    const body = eventBody(tenant);
    const first = await call(relay.app, 'POST', '/api/events', 202, { token: tenant.apiKey, payload: body });
    expect(first.body).toEqual({ status: 'accepted' });
    const again = await call(relay.app, 'POST', '/api/events', 200, { token: tenant.apiKey, payload: body });
    expect(again.body).toEqual({ status: 'duplicate' });
  });

  it('401 without a key; 403 for an org_id that is not the tenant’s', async () => {
    await call(relay.app, 'POST', '/api/events', 401, { payload: eventBody(tenant) });
    const { body } = await call(relay.app, 'POST', '/api/events', 403, { token: tenant.apiKey, payload: eventBody(tenant, { org_id: tenant.orgId + 1 }) });
    expect(body).toEqual({ error: 'org_id does not belong to this tenant' });
  });

  it('422 on every field bound of the contract', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ event_id: 'x'.repeat(65) }, 'event_id'],
      [{ event_name: 'x'.repeat(101) }, 'event_name'],
      [{ source: 'x'.repeat(51) }, 'source'],
      [{ org_id: '12' }, 'org_id'],
      [{ org_id: 1.5 }, 'org_id'],
      [{ actor: { type: 'x'.repeat(21) } }, 'actor.type'],
      [{ actor: { type: 'user', id: 'seven' } }, 'actor.id'],
      [{ data: 'text' }, 'data'],
      [{ occurred_at: 'yesterday' }, 'occurred_at'],
    ];
    for (const [override, field] of cases) {
      const { body } = await call(relay.app, 'POST', '/api/events', 422, { token: tenant.apiKey, payload: eventBody(tenant, override) });
      expect(Object.keys(body.errors), JSON.stringify(body)).toEqual([field]);
    }
    const missing = await call(relay.app, 'POST', '/api/events', 422, { token: tenant.apiKey, payload: {} });
    expect(Object.keys(missing.body.errors).sort()).toEqual(['actor', 'data', 'event_id', 'event_name', 'occurred_at', 'org_id', 'source']);
    expect(missing.body.errors.event_id).toEqual(['The event_id field is required.']);
    // Exactly at the bounds is fine.
    await call(relay.app, 'POST', '/api/events', 202, {
      token: tenant.apiKey,
      payload: eventBody(tenant, { event_id: 'e'.repeat(64), event_name: 'n'.repeat(100), source: 's'.repeat(50), actor: { type: 't'.repeat(20) } }),
    });
  });

  it('matching rules turn the event into messages (transaction_id = event_id); reprocessing sends nothing new', async () => {
    await createTemplate(relay.app, tenant.id, { event_key: 'receipt', html: '<p>Thanks {{customer.name}} for {{invoice}}</p>' });
    const rule = await call(relay.app, 'POST', `/admin/v1/tenants/${tenant.id}/event-rules`, 201, {
      token: TEST_OPERATOR_TOKEN,
      payload: { event_name: 'invoice.paid', channel: 'email', event_key: 'receipt', to: '{{data.customer.email}}', subject: 'Receipt for {{data.invoice}}' },
    });
    await call(relay.app, 'POST', `/admin/v1/tenants/${tenant.id}/event-rules`, 201, {
      token: TEST_OPERATOR_TOKEN,
      payload: { event_name: 'invoice.voided', channel: 'email', event_key: 'receipt', to: 'x@example.com', subject: 'other' },
    });
    const body = eventBody(tenant);
    await call(relay.app, 'POST', '/api/events', 202, { token: tenant.apiKey, payload: body });
    await relay.app.messaging.eventLoop.runOnce();

    const db = relay.app.database.db;
    const messages = await db.selectFrom('msg_messages').selectAll().execute();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      transaction_id: body.event_id,
      action: rule.body.event_rule.id,
      to_address: 'ada@example.com',
      subject: 'Receipt for INV-9',
      html: '<p>Thanks Ada for INV-9</p>',
    });
    const event = await db.selectFrom('msg_events').selectAll().executeTakeFirstOrThrow();
    expect(event.status).toBe('processed');
    expect(JSON.parse(event.result ?? '{}')).toEqual({ rules: [{ rule_id: rule.body.event_rule.id, message_id: messages[0]!.id, status: 'queued' }] });

    // Processing the same event again (e.g. after a crash) finds the message by its business id.
    await db.updateTable('msg_events').set({ status: 'pending', next_attempt_at: new Date(0).toISOString() }).execute();
    await relay.app.messaging.eventLoop.runOnce();
    expect(await db.selectFrom('msg_messages').select('id').execute()).toHaveLength(1);
  });

  it('records a rule that cannot send (bad recipient) on the event as failed', async () => {
    await createTemplate(relay.app, tenant.id, { event_key: 'receipt' });
    await call(relay.app, 'POST', `/admin/v1/tenants/${tenant.id}/event-rules`, 201, {
      token: TEST_OPERATOR_TOKEN,
      payload: { event_name: 'invoice.paid', channel: 'email', event_key: 'receipt', to: '{{data.customer.phone}}', subject: 'Receipt' },
    });
    await call(relay.app, 'POST', '/api/events', 202, { token: tenant.apiKey, payload: eventBody(tenant) });
    await relay.app.messaging.eventLoop.runOnce();
    const event = await relay.app.database.db.selectFrom('msg_events').selectAll().executeTakeFirstOrThrow();
    expect(event.status).toBe('failed');
    expect(event.result).toContain('The to field must be a valid email address.');
  });

  it('records a rule whose recipient renders longer than any e-mail address as failed, in words', async () => {
    await createTemplate(relay.app, tenant.id, { event_key: 'receipt' });
    // Well-formed, but 369 characters: more than an address may have (320), and more than the column holds.
    const tooLong = `${'a'.repeat(60)}@${`${'b'.repeat(60)}.`.repeat(5)}com`;
    await call(relay.app, 'POST', `/admin/v1/tenants/${tenant.id}/event-rules`, 201, {
      token: TEST_OPERATOR_TOKEN,
      payload: { event_name: 'invoice.paid', channel: 'email', event_key: 'receipt', to: tooLong, subject: 'Receipt' },
    });
    await call(relay.app, 'POST', '/api/events', 202, { token: tenant.apiKey, payload: eventBody(tenant) });
    await relay.app.messaging.eventLoop.runOnce();
    const event = await relay.app.database.db.selectFrom('msg_events').selectAll().executeTakeFirstOrThrow();
    expect(event.status).toBe('failed');
    expect(event.result).toContain('The to field must be a valid email address.');
  });
});
