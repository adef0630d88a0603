// Runs the numbered migrations at start. Safe when two relays start at once on one database:
// on PostgreSQL the run happens on one connection holding an advisory lock, so the second relay
// waits, then finds nothing left to apply; on SQLite the loser of the race rolls back and retries.
import { Migrator, sql, type Kysely, type MigrationResult } from 'kysely';
import type { DialectCapabilities } from './capabilities.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

const MIGRATION_LOCK_KEY = 7_453_001; // arbitrary, fixed: "ledgerwire migrations"
const SQLITE_ATTEMPTS = 5;

async function runMigrator(db: Kysely<Database>): Promise<MigrationResult[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    migrationTableName: 'relay_migrations',
    migrationLockTableName: 'relay_migrations_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return results ?? [];
}

export async function migrateToLatest(
  db: Kysely<Database>,
  capabilities: DialectCapabilities,
): Promise<MigrationResult[]> {
  if (capabilities.migrationSerialisation === 'advisory-lock') {
    return db.connection().execute(async (connection) => {
      await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`.execute(connection);
      try {
        return await runMigrator(connection);
      } finally {
        await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.execute(connection);
      }
    });
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await runMigrator(db);
    } catch (error) {
      // Each migration runs in a transaction, so a failed attempt left nothing half-applied.
      if (attempt >= SQLITE_ATTEMPTS) throw error;
    }
  }
}
