import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { openDatabase, type RelayDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { createTestDatabase, describeOnDatabases, type TestDatabase } from '@ledgerwire/test-kit';

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

  it('moves each transaction’s document and XML to transaction_documents, and keeps them', async () => {
    testDatabase = await createTestDatabase(kind);
    const database = openDatabase(testDatabase.database);
    opened.push(database);
    await migrateToLatest(database.db, database.capabilities, '0203-transaction-lease-session');
    const at = '2026-01-01T00:00:00.000Z';
    await sql`insert into applications (id, name, created_at) values ('app_1', 'App', ${at})`.execute(database.db);
    await sql`insert into companies (application_id, name, created_at, updated_at) values ('app_1', 'Books', ${at}, ${at})`.execute(database.db);
    const { rows } = await sql<{ id: number }>`select id from companies`.execute(database.db);
    await sql`insert into transactions (job_id, company_id, application_id, job_type, event_type, status, retry_count, max_retries,
                payload, document, xml, xml_company_name, created_at, updated_at)
              values ('job_1', ${rows[0]?.id}, 'app_1', 'voucher', 'sales.create', 'completed', 0, 5,
                '{}', '{"voucher_number":"S/1"}', '<ENVELOPE>S/1</ENVELOPE>', 'Books', ${at}, ${at})`.execute(database.db);

    await migrateToLatest(database.db, database.capabilities);
    const moved = await database.db
      .selectFrom('transactions')
      .innerJoin('transaction_documents', 'transaction_documents.transaction_id', 'transactions.id')
      .select(['job_id', 'document', 'xml', 'xml_company_name', 'status'])
      .execute();
    expect(moved).toEqual([{ job_id: 'job_1', document: '{"voucher_number":"S/1"}', xml: '<ENVELOPE>S/1</ENVELOPE>', xml_company_name: 'Books', status: 'completed' }]);
  });

  it('numbers migrations so that their order is their name order', () => {
    const names = Object.keys(migrations);
    expect(names).toEqual([...names].sort());
    for (const name of names) expect(name).toMatch(/^\d{4}-[a-z0-9-]+$/);
  });
});
