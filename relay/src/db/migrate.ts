// Runs the numbered migrations at start. Safe when two relays start at once on one PostgreSQL:
// the whole run happens on one connection holding an advisory lock, so the second relay waits,
// then finds nothing left to apply. SQLite serialises through its file lock and busy timeout.
import { Migrator, sql, type Kysely, type MigrationResult } from 'kysely';
import type { DialectCapabilities } from './capabilities.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

const MIGRATION_LOCK_KEY = 7_453_001; // arbitrary, fixed: "ledgerwire migrations"

export async function migrateToLatest(
  db: Kysely<Database>,
  capabilities: DialectCapabilities,
): Promise<MigrationResult[]> {
  return db.connection().execute(async (connection) => {
    if (capabilities.advisoryLock) await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`.execute(connection);
    try {
      const migrator = new Migrator({
        db: connection,
        provider: { getMigrations: () => Promise.resolve(migrations) },
        migrationTableName: 'relay_migrations',
        migrationLockTableName: 'relay_migrations_lock',
      });
      const { error, results } = await migrator.migrateToLatest();
      if (error) throw error instanceof Error ? error : new Error(String(error));
      return results ?? [];
    } finally {
      if (capabilities.advisoryLock) await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.execute(connection);
    }
  });
}
