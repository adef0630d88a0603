// Counting a batch at once (consumeUpTo): all, some or none of the wanted units, never past the
// limit even with concurrent batches on one database; units given back; in-memory counts undone
// when their transaction fails, table counts rolled back with it.
// One migrated database per file (migrating is most of a test's time); each test counts under keys of
// its own, so no test sees another's counts.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { openDatabase, type RelayDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { DAY_MS, MINUTE_MS, RateLimiter, type RateLimitGrant } from '../../src/limits/rate-limiter.js';
import { createTestDatabase, describeOnDatabases, type TestDatabase } from '@ledgerwire/test-kit';

const MINUTE_START = Date.UTC(2026, 10, 22, 12, 0, 0);

describeOnDatabases('rate limiter grants', (kind) => {
  let testDatabase: TestDatabase;
  let database: RelayDatabase;
  const clock = () => MINUTE_START + 20_000;
  const perMinute = { name: 'batch', limit: 5, windowMs: MINUTE_MS };
  const daily = { name: 'day', limit: 5, windowMs: DAY_MS };

  let tests = 0;
  /** A key no other test in the file counts under. */
  let key: (name: string) => string = (name) => name;

  beforeAll(async () => {
    testDatabase = await createTestDatabase(kind);
    database = openDatabase(testDatabase.database);
    await migrateToLatest(database.db, database.capabilities);
  });
  afterAll(async () => {
    await database.destroy();
    await testDatabase.drop();
  });
  beforeEach(() => {
    const prefix = `test-${++tests}:`;
    key = (name) => `${prefix}${name}`;
  });

  for (const mode of ['table', 'in memory'] as const) {
    it(`grants all, then what is left, then nothing (${mode})`, async () => {
      const limiter = new RateLimiter(database.db, clock, { processLocal: mode === 'in memory' });
      expect((await limiter.consumeUpTo(key('t'), perMinute, 3)).granted).toBe(3);
      const partial = await limiter.consumeUpTo(key('t'), perMinute, 4);
      expect(partial).toMatchObject({ granted: 2, local: mode === 'in memory' });
      expect(partial.refusal).toEqual({ allowed: false, limit: 5, remaining: 0, resetSeconds: 40 });
      expect((await limiter.consumeUpTo(key('t'), perMinute, 1)).granted).toBe(0);
      expect((await limiter.consumeUpTo(key('t'), perMinute, 0)).granted).toBe(0);
      expect(await limiter.used(key('t'), perMinute)).toBe(5);
    });

    it(`gives units back and undoes in-memory grants (${mode})`, async () => {
      const limiter = new RateLimiter(database.db, clock, { processLocal: mode === 'in memory' });
      const grant = await limiter.consumeUpTo(key('g'), perMinute, 4);
      const remaining = await limiter.giveBack(grant, 3);
      expect(remaining.granted).toBe(1);
      expect(await limiter.used(key('g'), perMinute)).toBe(1);
      limiter.undoLocal([remaining]);
      expect(await limiter.used(key('g'), perMinute)).toBe(mode === 'in memory' ? 0 : 1);
    });
  }

  it('a batch larger than the whole limit gets the limit', async () => {
    const limiter = new RateLimiter(database.db, clock);
    expect((await limiter.consumeUpTo(key('big'), daily, 50)).granted).toBe(5);
    expect(await limiter.used(key('big'), daily)).toBe(5);
  });

  it('grants and give-backs inside a transaction that rolls back leave nothing in the table', async () => {
    const limiter = new RateLimiter(database.db, clock, { processLocal: true });
    const grants: RateLimitGrant[] = [];
    await expect(
      database.db.transaction().execute(async (tx) => {
        const day = await limiter.consumeUpTo(key('tx'), daily, 4, { executor: tx });
        grants.push(await limiter.giveBack(day, 1, { executor: tx }));
        grants.push(await limiter.consumeUpTo(key('tx'), perMinute, 3, { executor: tx }));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    limiter.undoLocal(grants);
    expect(await limiter.used(key('tx'), daily)).toBe(0);
    expect(await limiter.used(key('tx'), perMinute)).toBe(0);
  });

  it('counts two table rules together, all or nothing, and leaves rules counted in memory to consumeUpTo', async () => {
    const limiter = new RateLimiter(database.db, clock);
    const both = await limiter.consumeTogether(key('pair'), [daily, perMinute], 3);
    expect(both?.map((grant) => grant.granted)).toEqual([3, 3]);
    expect(both?.[1].refusal).toEqual({ allowed: false, limit: 5, remaining: 0, resetSeconds: 40 });
    // 3 more fit neither: nothing is counted in either.
    expect(await limiter.consumeTogether(key('pair'), [daily, perMinute], 3)).toBeUndefined();
    expect(await limiter.used(key('pair'), daily)).toBe(3);
    expect(await limiter.used(key('pair'), perMinute)).toBe(3);
    // The day has room for 2 more, the minute for 1 only: the day's count is taken back.
    await limiter.consumeUpTo(key('pair'), perMinute, 1);
    expect(await limiter.consumeTogether(key('pair'), [daily, perMinute], 2)).toBeUndefined();
    expect(await limiter.used(key('pair'), daily)).toBe(3);
    expect(await limiter.used(key('pair'), perMinute)).toBe(4);
    expect(await limiter.consumeTogether(key('pair'), [daily, perMinute], 1)).toHaveLength(2);
    expect(await limiter.used(key('pair'), daily)).toBe(4);
    expect(await limiter.used(key('pair'), perMinute)).toBe(5);

    const inMemory = new RateLimiter(database.db, clock, { processLocal: true });
    expect(await inMemory.consumeTogether(key('local'), [daily, perMinute], 1)).toBeUndefined();
    expect(await inMemory.used(key('local'), daily)).toBe(0);
  });

  it('concurrent pairs never take more than either limit between them', async () => {
    const limiter = new RateLimiter(database.db, clock);
    const hot = { name: 'hot-pair', limit: 10, windowMs: MINUTE_MS };
    const grants = await Promise.all(
      Array.from({ length: 8 }, () => database.db.transaction().execute((tx) => limiter.consumeTogether(key('pair'), [daily, hot], 1, { executor: tx }))),
    );
    expect(grants.filter((grant) => grant !== undefined)).toHaveLength(5);
    expect(await limiter.used(key('pair'), daily)).toBe(5);
    expect(await limiter.used(key('pair'), hot)).toBe(5);
  });

  it('concurrent batches never take more than the limit between them', async () => {
    const limiter = new RateLimiter(database.db, clock);
    const grants = await Promise.all(
      Array.from({ length: 8 }, () => database.db.transaction().execute((tx) => limiter.consumeUpTo(key('hot'), { name: 'hot', limit: 10, windowMs: MINUTE_MS }, 3, { executor: tx }))),
    );
    expect(grants.reduce((sum, grant) => sum + grant.granted, 0)).toBe(10);
    expect(await limiter.used(key('hot'), { name: 'hot', limit: 10, windowMs: MINUTE_MS })).toBe(10);
  });
});
