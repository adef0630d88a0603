// Requests of one scope counted together (one counter write for those read in the same turn) get the
// answers counting them one at a time would give: in arrival order, each with its own remaining, the
// ones beyond the limit refused and not counted; scopes and rules are counted apart. A scope has one
// count in flight: the requests that arrive meanwhile are counted together once it is written.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { openDatabase, type RelayDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { GroupedRateCount } from '../../src/limits/grouped-rate-count.js';
import { MINUTE_MS, RateLimiter } from '../../src/limits/rate-limiter.js';
import { createTestDatabase, describeOnDatabases, type TestDatabase } from '@ledgerwire/test-kit';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 20);

describeOnDatabases('grouped rate count', (kind) => {
  let testDatabase: TestDatabase;
  let database: RelayDatabase;

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
  });

  const counterOf = async (scope: string) =>
    (await database.db.selectFrom('rate_limit_counters').select('count').where('scope', '=', `test:${scope}`).executeTakeFirst())?.count;

  it('counts concurrent requests with one write and answers each as if counted in arrival order', async () => {
    const grouped = new GroupedRateCount(new RateLimiter(database.db, () => NOW));
    const rule = { name: 'test', limit: 10, windowMs: MINUTE_MS };
    const decisions = await Promise.all(Array.from({ length: 4 }, () => grouped.consume('a', rule)));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 9],
      [true, 8],
      [true, 7],
      [true, 6],
    ]);
    expect(Number(await counterOf('a'))).toBe(4);
  });

  it('lets the first requests have the room left when it is less than the group, and counts no refused one', async () => {
    const grouped = new GroupedRateCount(new RateLimiter(database.db, () => NOW));
    const rule = { name: 'test', limit: 5, windowMs: MINUTE_MS };
    await grouped.consume('b', rule);
    const [aOther, ...decisions] = await Promise.all([grouped.consume('other', rule), ...Array.from({ length: 6 }, () => grouped.consume('b', rule))]);
    expect(aOther?.allowed).toBe(true);
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 3],
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
      [false, 0],
    ]);
    expect(Number(await counterOf('b'))).toBe(5);
    expect(Number(await counterOf('other'))).toBe(1);
  });

  it('holds the requests that arrive while a count is being written and counts them together after it', async () => {
    const limiter = new RateLimiter(database.db, () => NOW);
    const costs: number[] = [];
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const consume = limiter.consume.bind(limiter);
    limiter.consume = async (scope, rule, options) => {
      costs.push(options?.cost ?? 1);
      await gate;
      return consume(scope, rule, options);
    };
    const grouped = new GroupedRateCount(limiter);
    const rule = { name: 'test', limit: 10, windowMs: MINUTE_MS };
    const first = [grouped.consume('c', rule), grouped.consume('c', rule)];
    await new Promise((resolve) => setImmediate(resolve)); // the first two are being counted
    const later = [grouped.consume('c', rule), grouped.consume('c', rule), grouped.consume('c', rule)];
    await new Promise((resolve) => setImmediate(resolve)); // a flush would have run by now
    expect(costs).toEqual([2]);
    open();
    const decisions = await Promise.all([...first, ...later]);
    expect(costs).toEqual([2, 3]);
    expect(decisions.map((d) => d.remaining)).toEqual([9, 8, 7, 6, 5]);
    expect(Number(await counterOf('c'))).toBe(5);
  });
});
