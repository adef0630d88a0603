// POST /api/messages/batch, on SQLite and PostgreSQL: results in the items' order, each what the send
// alone would have got (a queued message, a 422 with its field errors, a 409, an "Invalid template", a
// 429 once the tenant's limits are used up); repeats replay; and a batch that is not one — more than
// 100 items, no array — is a 422 that stores nothing.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, describeOnDatabases } from '@ledgerwire/test-kit';
import { createTemplate, provisionTenant, sendBody, startMessagingRelay, type MessagingTestRelay, type ProvisionedTenant } from './support/messaging-test-relay.js';

describeOnDatabases('send batches', (kind) => {
  let relay: MessagingTestRelay;
  let tenant: ProvisionedTenant;

  beforeEach(async () => {
    relay = await startMessagingRelay(kind);
    tenant = await provisionTenant(relay.app, { limits: { daily_quota: 5, sustained_per_minute: 100 } });
    await createTemplate(relay.app, tenant.id, { event_key: 'invoice_ready' });
  });
  afterEach(async () => {
    await relay.close();
  });

  const stored = async () => Number((await relay.app.database.db.selectFrom('msg_messages').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  it('answers each item in order with what that send alone would have got', async () => {
    const first = sendBody();
    const { body } = await call(relay.app, 'POST', '/api/messages/batch', 200, {
      token: tenant.apiKey,
      payload: {
        messages: [
          first,
          sendBody({ to: 'not an address' }),
          sendBody({ event_key: 'no_such_template' }),
          { ...first, subject: 'Another subject' },
          sendBody({ attachments: [{ filename: 'a.exe', content: 'TVo=', content_type: 'application/octet-stream' }] }),
          first,
          sendBody({ channel: undefined }),
        ],
      },
    });
    const [sent, badTo, noTemplate, conflict, refusedType, repeat, missing] = body.results;
    expect(sent).toEqual({ message_id: expect.stringMatching(/^msg_/), status: 'queued' });
    expect(badTo).toEqual({ status_code: 422, message: 'The to field must be a valid email address.', errors: { to: ['The to field must be a valid email address.'] } });
    expect(noTemplate).toEqual({ status_code: 422, error: 'Invalid template', event_key: 'no_such_template', channel: 'email' });
    expect(conflict).toMatchObject({ status_code: 409 });
    expect(refusedType.status_code).toBe(422);
    expect(refusedType.errors['attachments.0.filename'][0]).toContain('a type mail systems refuse');
    expect(repeat).toEqual(sent);
    expect(missing).toMatchObject({ status_code: 422, errors: { channel: ['The channel field is required.'] } });
    expect(await stored()).toBe(1);
  });

  it('each item counts against the daily quota as one send: the ones past it get the 429 a send would', async () => {
    const { body } = await call(relay.app, 'POST', '/api/messages/batch', 200, { token: tenant.apiKey, payload: { messages: Array.from({ length: 7 }, () => sendBody()) } });
    // Which items the quota admits follows the accept transaction's lock order, not the item order.
    expect(body.results.filter((r: { status?: string }) => r.status === 'queued')).toHaveLength(5);
    expect(body.results.filter((r: { status_code?: number }) => r.status_code !== undefined)).toEqual([
      { status_code: 429, error: 'Daily quota exceeded' },
      { status_code: 429, error: 'Daily quota exceeded' },
    ]);
    expect(await stored()).toBe(5);
  });

  it('more than 100 items, an empty list or no list is a 422 for the whole batch, and nothing is stored', async () => {
    const tooMany = await call(relay.app, 'POST', '/api/messages/batch', 422, { token: tenant.apiKey, payload: { messages: Array.from({ length: 101 }, () => sendBody()) } });
    expect(tooMany.body.errors.messages[0]).toContain('must not have more than 100 items');
    await call(relay.app, 'POST', '/api/messages/batch', 422, { token: tenant.apiKey, payload: { messages: [] } });
    const none = await call(relay.app, 'POST', '/api/messages/batch', 422, { token: tenant.apiKey, payload: {} });
    expect(none.body.errors.messages[0]).toBe('The messages field is required.');
    await call(relay.app, 'POST', '/api/messages/batch', 401, { payload: { messages: [sendBody()] } });
    expect(await stored()).toBe(0);
  });
});
