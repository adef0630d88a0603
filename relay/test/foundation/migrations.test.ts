import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { openDatabase, type RelayDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { createTestDatabase, describeOnDatabases, type TestDatabase } from '../helpers/test-databases.js';

describeOnDatabases('migrations', (kind) => {
  let testDatabase: TestDatabase;
  const opened: RelayDatabase[] = [];
  afterEach(async () => {
    for (const database of opened.splice(0)) await database.destroy();
    await testDatabase.drop();
  });

  it('two relays migrating one database at the same moment both succeed and apply each migration once', async () => {
    testDatabase = await createTestDatabase(kind);
    const a = openDatabase(testDatabase.database);
    const b = openDatabase(testDatabase.database);
    opened.push(a, b);
    const [resultsA, resultsB] = await Promise.all([
      migrateToLatest(a.db, a.capabilities),
      migrateToLatest(b.db, b.capabilities),
    ]);
    const appliedNames = [...resultsA, ...resultsB].filter((r) => r.status === 'Success').map((r) => r.migrationName);
    expect(appliedNames.sort()).toEqual(Object.keys(migrations).sort());

    const rows = await sql<{ name: string }>`select name from relay_migrations order by name`.execute(a.db);
    expect(rows.rows.map((r) => r.name)).toEqual(Object.keys(migrations).sort());
    // A third start finds nothing to do.
    expect(await migrateToLatest(a.db, a.capabilities)).toEqual([]);
  });

  it('numbers migrations so that their order is their name order', () => {
    const names = Object.keys(migrations);
    expect(names).toEqual([...names].sort());
    for (const name of names) expect(name).toMatch(/^\d{4}-[a-z0-9-]+$/);
  });
});
