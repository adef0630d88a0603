// The rate limiter over the shared counter table: fixed windows aligned to the minute / UTC day,
// refused requests not counted, atomic under concurrency, shared by separate database handles
// (two relay processes on one PostgreSQL), and a count inside a rolled-back transaction undone. On
// PostgreSQL a short window's count made on its own does not wait for the WAL flush.
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { openDatabase, type RelayDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { Database } from '../../src/db/schema.js';
import { RateLimitCounterRepository } from '../../src/limits/rate-limit-counter-repository.js';
import { DAY_MS, MINUTE_MS, RateLimiter, rateLimitHeaders } from '../../src/limits/rate-limiter.js';
import { createTestDatabase, describeOnDatabases, testClock, type TestDatabase } from '@ledgerwire/test-kit';

const MINUTE_START = Date.UTC(2026, 10, 22, 12, 0, 0);

describeOnDatabases('rate limiter', (kind) => {
  let testDatabase: TestDatabase;
  let database: RelayDatabase;
  const clock = testClock(MINUTE_START + 20_000);

  // One migrated database per file (migrating is most of a test's time); the limiter keeps its counts in
  // rate_limit_counters alone, so emptying it gives each test what a fresh database would.
  beforeAll(async () => {
    testDatabase = await createTestDatabase(kind);
    database = openDatabase(testDatabase.database);
    await migrateToLatest(database.db, database.capabilities);
  });
  afterAll(async () => {
    await database.destroy();
    await testDatabase.drop();
  });
  beforeEach(async () => {
    await database.db.deleteFrom('rate_limit_counters').execute();
    clock.set(MINUTE_START + 20_000);
  });

  const rule = { name: 'test', limit: 3, windowMs: MINUTE_MS };

  it('allows up to the limit in a window, refuses without counting, and starts again next window', async () => {
    const limiter = new RateLimiter(database.db, clock.now);
    const decisions = [];
    for (let i = 0; i < 5; i++) decisions.push(await limiter.consume('a', rule));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
      [false, 0],
    ]);
    expect(await limiter.used('a', rule)).toBe(3);
    expect(decisions[3]!.resetSeconds).toBe(40);
    expect(rateLimitHeaders(decisions[3]!)).toEqual({ 'RateLimit-Limit': '3', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '40', 'Retry-After': '40' });
    expect((await limiter.consume('b', rule)).allowed).toBe(true);
    clock.set(MINUTE_START + MINUTE_MS);
    expect(await limiter.consume('a', rule)).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 60 });
  });

  it('daily windows reset at 00:00 UTC', async () => {
    const limiter = new RateLimiter(database.db, clock.now);
    const daily = { name: 'day', limit: 1, windowMs: DAY_MS };
    expect((await limiter.consume('t', daily)).allowed).toBe(true);
    const refused = await limiter.consume('t', daily);
    expect(refused).toMatchObject({ allowed: false, resetSeconds: 12 * 3600 - 20 });
    clock.set(Date.UTC(2026, 10, 23, 0, 0, 1));
    expect((await limiter.consume('t', daily)).allowed).toBe(true);
  });

  it('is exact under 40 concurrent consumers: 10 allowed of a limit of 10', async () => {
    const limiter = new RateLimiter(database.db, clock.now);
    const results = await Promise.all(Array.from({ length: 40 }, () => limiter.consume('hot', { name: 'c', limit: 10, windowMs: MINUTE_MS })));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    expect(await limiter.used('hot', { name: 'c', limit: 10, windowMs: MINUTE_MS })).toBe(10);
  });

  it('two handles on one database (two relay processes) share the counters', async () => {
    const second = secondHandle(testDatabase);
    try {
      const a = new RateLimiter(database.db, clock.now);
      const b = new RateLimiter(second, clock.now);
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).consume('shared', { name: 's', limit: 7, windowMs: MINUTE_MS })));
      expect(results.filter((r) => r.allowed)).toHaveLength(7);
    } finally {
      await second.destroy();
    }
  });

  it('a count made inside a transaction that rolls back is undone', async () => {
    const limiter = new RateLimiter(database.db, clock.now);
    await expect(
      database.db.transaction().execute(async (tx) => {
        await limiter.consume('tx', rule, { executor: tx });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await limiter.used('tx', rule)).toBe(0);
  });

  it('process-local mode keeps per-minute windows in memory and daily quotas in the table', async () => {
    const limiter = new RateLimiter(database.db, clock.now, { processLocal: true });
    for (let i = 0; i < 4; i++) await limiter.consume('m', rule);
    expect(await limiter.used('m', rule)).toBe(3);
    const daily = { name: 'd', limit: 5, windowMs: DAY_MS };
    await limiter.consume('m', daily);
    const rows = await database.db.selectFrom('rate_limit_counters').select(['scope', 'count']).execute();
    expect(rows).toEqual([{ scope: 'd:m', count: 1 }]);
  });

  it.skipIf(kind !== 'postgres')(
    'on PostgreSQL a short window counted on its own commits without waiting for the WAL flush; a caller’s transaction keeps waiting',
    async () => {
      const limiter = new RateLimiter(database.db, clock.now, { shortWindowsWithoutFlushWait: database.capabilities.commitsWithoutFlushWait });
      const hot = { name: 'c', limit: 10, windowMs: MINUTE_MS };
      const results = await Promise.all(Array.from({ length: 40 }, () => limiter.consume('hot', hot)));
      expect(results.filter((r) => r.allowed)).toHaveLength(10);
      const second = secondHandle(testDatabase);
      try {
        expect(await new RateLimiter(second, clock.now).used('hot', hot)).toBe(10);
      } finally {
        await second.destroy();
      }
      // The setting lives as long as the counting statement's own transaction: a connection with one
      // client shows it back at the server's default straight after.
      const single = secondHandle(testDatabase, 1);
      try {
        await new RateLimitCounterRepository(single).tryIncrementWithoutFlushWait({ scope: 'x', windowStart: MINUTE_START, expiresAt: MINUTE_START + MINUTE_MS, ceiling: 5, cost: 1 });
        expect((await sql<{ mode: string }>`select current_setting('synchronous_commit') as mode`.execute(single)).rows[0]?.mode).toBe('on');
      } finally {
        await single.destroy();
      }
      const inTransaction = await database.db.transaction().execute(async (tx) => {
        await limiter.consume('tx', rule, { executor: tx });
        return (await sql<{ mode: string }>`select current_setting('synchronous_commit') as mode`.execute(tx)).rows[0]?.mode;
      });
      expect(inTransaction).toBe('on');
      expect(await limiter.used('tx', rule)).toBe(1);
    },
  );

  it('prunes windows that have ended', async () => {
    const limiter = new RateLimiter(database.db, clock.now);
    await limiter.consume('old', rule);
    clock.advance(2 * MINUTE_MS);
    expect(await limiter.pruneExpired()).toBe(1);
  });
});

function secondHandle(testDatabase: TestDatabase, connections = 5): Kysely<Database> {
  const config = testDatabase.database;
  if (config.kind === 'sqlite') {
    const connection = new SQLite(config.file);
    connection.pragma('busy_timeout = 5000');
    return new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
  }
  const pool = new pg.Pool({ connectionString: config.url, max: connections, ...(config.schema ? { options: `-c search_path=${config.schema}` } : {}) });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
