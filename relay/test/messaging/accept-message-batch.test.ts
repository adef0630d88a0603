// One batch's transaction on a real database: new and already-stored messages side by side, several
// tenants each counted against their own limits, the daily quota and the sustained limit each
// refusing the tail of a batch (refused rows deleted, their units unused), and a batch whose insert
// fails leaving nothing behind — then isolated by the batcher so the other messages still go in.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { acceptMessageBatch, type PendingMessage } from '../../src/messaging/store/messages/accept-message-batch.js';
import { MessageAcceptBatcher } from '../../src/messaging/services/messages/message-accept-batcher.js';
import { MessageBatchInsert } from '../../src/messaging/store/messages/message-batch-insert.js';
import type { MessageRow } from '../../src/messaging/store/messages/message-repository.js';
import { newId } from '../../src/foundation/messaging-ids.js';
import { DEFAULT_TENANT_LIMITS, limitRules } from '../../src/messaging/store/tenants/tenant-limits.js';
import { describeOnDatabases, midMinute, testClock } from '@ledgerwire/test-kit';
import { provisionTenant, startMessagingRelay, type MessagingTestRelay } from './support/messaging-test-relay.js';

describeOnDatabases('accepting a batch of messages', (kind) => {
  let relay: MessagingTestRelay;

  beforeEach(async () => {
    relay = await startMessagingRelay(kind, {}, { now: testClock(midMinute()).now });
  });
  afterEach(async () => relay.close());

  const deps = () => ({ db: relay.app.database.db, insert: new MessageBatchInsert(relay.app.database.db), limiter: relay.app.messaging.limiter });

  function message(tenantId: string, transactionId: string, limits: Partial<typeof DEFAULT_TENANT_LIMITS> = {}): PendingMessage {
    const at = new Date(midMinute()).toISOString();
    const row: MessageRow = {
      id: newId('msg'),
      tenant_id: tenantId,
      business_event_id: `${transactionId}_send`,
      transaction_id: transactionId,
      action: 'send',
      request_hash: 'f'.repeat(64),
      channel: 'email',
      to_address: 'ada@example.com',
      subject: `Invoice ${transactionId}`,
      html: '<p>Hi</p>',
      text: null,
      event_key: 'invoice_ready',
      template_id: 'tpl_test',
      template_fallback: 0,
      status: 'queued',
      status_rank: 0,
      provider: null,
      provider_message_id: null,
      attempts: 0,
      next_attempt_at: at,
      lease_until: null,
      error: null,
      created_at: at,
      updated_at: at,
      attachment_bytes: 0,
      metadata: null,
      tags: null,
      test_mode: 0,
    };
    return { row, limits: { ...DEFAULT_TENANT_LIMITS, ...limits } };
  }

  const storedIds = async () => (await relay.app.database.db.selectFrom('msg_messages').select('id').execute()).map((row) => row.id).sort();
  const used = (tenantId: string, rule: 'daily' | 'sustained', limits = DEFAULT_TENANT_LIMITS) => relay.app.messaging.limiter.used(tenantId, limitRules(limits)[rule]);

  it('stores new messages, reports stored repeats as duplicates, and counts per tenant', async () => {
    const a = (await provisionTenant(relay.app)).id;
    const b = (await provisionTenant(relay.app)).id;
    const earlier = message(a, 'a-1');
    await acceptMessageBatch(deps(), [earlier]);
    const batch = [message(a, 'a-1'), message(a, 'a-2'), message(b, 'b-1'), message(b, 'b-2'), message(b, 'b-3')];
    const outcomes = await acceptMessageBatch(deps(), batch);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['duplicate', 'stored', 'stored', 'stored', 'stored']);
    expect(await storedIds()).toEqual([earlier, ...batch.slice(1)].map((pending) => pending.row.id).sort());
    expect([await used(a, 'daily'), await used(a, 'sustained'), await used(b, 'daily'), await used(b, 'sustained')]).toEqual([2, 2, 3, 3]);
  });

  it('the daily quota refuses the tail of a batch: no rows, no units, headers of the daily window', async () => {
    const limits = { ...DEFAULT_TENANT_LIMITS, daily_quota: 3 };
    const tenant = (await provisionTenant(relay.app, { limits: { daily_quota: 3 } })).id;
    await acceptMessageBatch(deps(), [message(tenant, 'first', limits)]);
    const batch = ['x', 'y', 'z', 'w'].map((id) => message(tenant, id, limits));
    const outcomes = await acceptMessageBatch(deps(), batch);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['stored', 'stored', 'refused', 'refused']);
    const refused = outcomes[2]!;
    if (refused.kind !== 'refused') throw new Error('expected a refusal');
    expect(refused.error.code).toBe('daily_quota_exceeded');
    expect(refused.error.headers).toMatchObject({ 'RateLimit-Limit': '3', 'RateLimit-Remaining': '0', 'Retry-After': String(12 * 3600 - 30) });
    expect(await storedIds()).toHaveLength(3);
    expect(await used(tenant, 'daily', limits)).toBe(3);
    expect(await used(tenant, 'sustained', limits)).toBe(3);
  });

  it('the sustained limit refuses the tail of a batch and the daily units it took go back', async () => {
    const limits = { ...DEFAULT_TENANT_LIMITS, sustained_per_minute: 2 };
    const tenant = (await provisionTenant(relay.app, { limits: { sustained_per_minute: 2 } })).id;
    const outcomes = await acceptMessageBatch(deps(), ['p', 'q', 'r', 's'].map((id) => message(tenant, id, limits)));
    expect(outcomes.map((outcome) => (outcome.kind === 'refused' ? outcome.error.code : outcome.kind))).toEqual([
      'stored',
      'stored',
      'sustained_limit_exceeded',
      'sustained_limit_exceeded',
    ]);
    expect(await storedIds()).toHaveLength(2);
    expect(await used(tenant, 'daily', limits)).toBe(2);
    expect(await used(tenant, 'sustained', limits)).toBe(2);
  });

  it('a batch whose insert fails keeps nothing — no rows, no daily or sustained units', async () => {
    const tenant = (await provisionTenant(relay.app)).id;
    // An unknown tenant breaks the foreign key: the whole statement, and so the batch, fails.
    await expect(acceptMessageBatch(deps(), [message(tenant, 'ok'), message('ten_missing', 'orphan')])).rejects.toThrow();
    expect(await storedIds()).toEqual([]);
    expect([await used(tenant, 'daily'), await used(tenant, 'sustained')]).toEqual([0, 0]);
  });

  it('through the batcher, the failing message fails alone and the others are stored and counted once', async () => {
    const tenant = (await provisionTenant(relay.app)).id;
    const batcher = new MessageAcceptBatcher((batch) => acceptMessageBatch(deps(), batch));
    const good = [message(tenant, 'g1'), message(tenant, 'g2')];
    const results = await Promise.allSettled([good[0]!, message('ten_missing', 'orphan'), good[1]!].map((pending) => batcher.accept(pending)));
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await storedIds()).toEqual(good.map((pending) => pending.row.id).sort());
    expect([await used(tenant, 'daily'), await used(tenant, 'sustained')]).toEqual([2, 2]);
  });
});
