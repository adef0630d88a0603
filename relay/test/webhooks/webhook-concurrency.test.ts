// Several relay processes on one database: two delivery loops, each on its own connection pool, claim
// from the same queue at once and still send every delivery exactly once. On PostgreSQL the claim skips
// rows another transaction holds (FOR UPDATE SKIP LOCKED) instead of waiting for them.
import pg from 'pg';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { BackgroundLoop } from '../../src/background/background-loop.js';
import { describeOnDatabases, startWebhookCatcher, type WebhookCatcher } from '@ledgerwire/test-kit';
import { startEngine, type TestEngine } from './webhook-test-kit.js';

const owner = { kind: 'tenant', id: 'ten_busy' } as const;

describeOnDatabases('webhook delivery by two relay processes', (kind) => {
  let engine: TestEngine;
  let receiver: WebhookCatcher;
  let second: BackgroundLoop;

  beforeEach(async () => {
    engine = await startEngine(kind, { batchSize: 4 });
    second = await engine.openSecondLoop();
    receiver = await startWebhookCatcher();
  });
  afterEach(async () => {
    expect(engine.loop.health().lastError).toBeNull();
    expect(second.health().lastError).toBeNull();
    await receiver.close();
    await engine.close();
  });

  async function pendingCount(): Promise<number> {
    const row = await engine.database.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  it('two loops racing over one queue never send a delivery twice', async () => {
    for (let e = 0; e < 3; e += 1) await engine.service.createEndpoint(owner, { url: `${receiver.url()}/${e}` });
    for (let i = 0; i < 12; i += 1) await engine.service.publish(owner, { type: 'message.delivered', data: { n: i } });
    expect(await pendingCount()).toBe(36);

    for (let round = 0; round < 40 && (await pendingCount()) > 0; round += 1) {
      await Promise.all([engine.loop.runOnce(), second.runOnce()]);
    }
    expect(await pendingCount()).toBe(0);
    const deliveryIds = receiver.received.map((r) => r.headers['x-service-delivery']);
    expect(deliveryIds).toHaveLength(36);
    expect(new Set(deliveryIds).size).toBe(36);
    const attempts = await engine.database.db.selectFrom('webhook_attempts').select(['delivery_id', 'attempt_number']).execute();
    expect(attempts).toHaveLength(36);
    expect(attempts.every((a) => a.attempt_number === 1)).toBe(true);
    const statuses = await engine.database.db.selectFrom('webhook_deliveries').select(['status', 'attempt_count']).execute();
    expect(statuses.every((d) => d.status === 'succeeded' && d.attempt_count === 1)).toBe(true);
  });

  it.runIf(kind === 'postgres')('skips deliveries another process has locked instead of waiting for them', async () => {
    await engine.service.createEndpoint(owner, { url: receiver.url() });
    for (let i = 0; i < 4; i += 1) await engine.service.publish(owner, { type: 'message.sent', data: { n: i } });
    const rows = await engine.database.db.selectFrom('webhook_deliveries').select('id').orderBy('id').execute();
    const locked = rows.slice(0, 2).map((r) => r.id);
    const database = engine.testDatabase.database;
    if (database.kind !== 'postgres') throw new Error('PostgreSQL only');

    const holder = new pg.Client({ connectionString: database.url, options: `-c search_path=${database.schema}` });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select id from webhook_deliveries where id = any($1) for update', [locked]);
      // Without SKIP LOCKED this pass would block on the two held rows until the test timed out.
      await second.runOnce();
      const sent = receiver.received.map((r) => r.headers['x-service-delivery']);
      expect(sent.sort()).toEqual(rows.slice(2).map((r) => r.id).sort());
      await holder.query('commit');
    } finally {
      await holder.end();
    }
    await engine.loop.runOnce();
    expect(receiver.received.map((r) => r.headers['x-service-delivery']).sort()).toEqual(rows.map((r) => r.id).sort());
  });
});
