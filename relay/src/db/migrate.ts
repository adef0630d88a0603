// Runs the numbered migrations at start. Safe when two relays start at once on one database:
// PostgreSQL runs the whole migration on one connection holding an advisory lock; SQLite runs it
// inside one `BEGIN IMMEDIATE` transaction, which only one connection can hold. Either way the
// second relay waits, then finds nothing left to apply.
import { setTimeout as delay } from 'node:timers/promises';
import { Migrator, sql, type Kysely, type MigrationResult } from 'kysely';
import type { DialectCapabilities } from './capabilities.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

/**
 * Arbitrary, fixed: "ledgerwire migrations". Tests that change the catalogue of a shared PostgreSQL
 * (creating or dropping test schemas, renaming a table) hold it too, because Kysely's migrator
 * introspects every schema and fails on an object that vanishes during its scan.
 */
export const MIGRATION_LOCK_KEY = 7_453_001;
const SQLITE_LOCK_WAIT_MS = 60_000;

async function runMigrator(
  db: Kysely<Database>,
  options: { schema?: string | undefined; disableTransactions?: boolean; upTo?: string | undefined },
): Promise<MigrationResult[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    migrationTableName: 'relay_migrations',
    migrationLockTableName: 'relay_migrations_lock',
    // Kysely looks for its tables across every schema it can see; name ours so that another
    // schema's migration tables (other relays, other tests) are never taken for this one's.
    ...(options.schema === undefined ? {} : { migrationTableSchema: options.schema }),
    ...(options.disableTransactions ? { disableTransactions: true } : {}),
  });
  const { error, results } = options.upTo === undefined ? await migrator.migrateToLatest() : await migrator.migrateTo(options.upTo);
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return results ?? [];
}

/** Takes SQLite's write lock without blocking the event loop (busy_timeout would block it). */
async function beginImmediate(connection: Kysely<Database>): Promise<void> {
  const deadline = Date.now() + SQLITE_LOCK_WAIT_MS;
  await sql`pragma busy_timeout = 0`.execute(connection);
  try {
    for (let wait = 5; ; wait = Math.min(wait * 2, 200)) {
      try {
        await sql`begin immediate`.execute(connection);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
        await delay(wait);
      }
    }
  } finally {
    await sql`pragma busy_timeout = 5000`.execute(connection);
  }
}

/**
 * Applies every migration not applied yet, or those up to and including `upTo` (a migration's name;
 * tests of a migration's data use it to stop just before it).
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  capabilities: DialectCapabilities,
  upTo?: string,
): Promise<MigrationResult[]> {
  return db.connection().execute(async (connection) => {
    if (capabilities.migrationSerialisation === 'advisory-lock') {
      await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`.execute(connection);
      try {
        const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(connection);
        return await runMigrator(connection, { schema: rows[0]?.schema, upTo });
      } finally {
        await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.execute(connection);
      }
    }
    await beginImmediate(connection);
    try {
      const results = await runMigrator(connection, { disableTransactions: true, upTo });
      await sql`commit`.execute(connection);
      return results;
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
  });
}
