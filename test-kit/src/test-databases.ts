// Each test gets a database of its own so suites can run side by side: a SQLite file in a temporary
// directory, or a fresh PostgreSQL schema (dropped by the global setup when the run ends, never mid-run).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, inject } from 'vitest';
import { MIGRATION_LOCK_KEY, type RelayConfig } from '@ledgerwire/relay';

export type DatabaseKind = 'sqlite' | 'postgres';

export type TestDatabase = Readonly<{
  kind: DatabaseKind;
  dataDir: string;
  database: RelayConfig['database'];
  /** Removes the directory (PostgreSQL schemas are dropped when the run ends, see test/global-setup.ts). */
  drop(): Promise<void>;
}>;

/** The database kinds this run has: PostgreSQL only when the global setup found it. */
export function availableDatabaseKinds(): DatabaseKind[] {
  return inject('postgresAvailable') ? ['sqlite', 'postgres'] : ['sqlite'];
}

/** Runs the suite once per database kind present; PostgreSQL's absence was announced by the global setup. */
export function describeOnDatabases(name: string, suite: (kind: DatabaseKind) => void): void {
  describe.each(availableDatabaseKinds())(`${name} [%s]`, suite);
}

export async function createTestDatabase(kind: DatabaseKind, prefix = 'lw-relay-'): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const drop = async () => fs.rmSync(dataDir, { recursive: true, force: true });
  if (kind === 'sqlite') return { kind, dataDir, database: { kind: 'sqlite', file: path.join(dataDir, 'relay.sqlite') }, drop };
  const url = inject('postgresUrl');
  const schema = `lw_test_${inject('testRunId')}_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Under the migration lock, as the global setup's sweep takes it: a schema never appears mid-sweep.
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(`create schema ${schema}`);
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
  } finally {
    await client.end();
  }
  return { kind, dataDir, database: { kind: 'postgres', url, schema }, drop };
}
