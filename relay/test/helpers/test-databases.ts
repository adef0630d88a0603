// Gives each test its own database: a fresh SQLite file in a temporary directory, or a fresh
// PostgreSQL schema. `describeOnDatabases` runs one suite on every database present.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, inject } from 'vitest';
import type { RelayConfig } from '../../src/config/load-config.js';
import { MIGRATION_LOCK_KEY } from '../../src/db/migrate.js';

export type DatabaseKind = 'sqlite' | 'postgres';

export type TestDatabase = Readonly<{
  kind: DatabaseKind;
  dataDir: string;
  database: RelayConfig['database'];
  /** Removes the directory (PostgreSQL schemas are dropped when the run ends). */
  drop(): Promise<void>;
}>;

export function availableDatabaseKinds(): DatabaseKind[] {
  return inject('postgresAvailable') ? ['sqlite', 'postgres'] : ['sqlite'];
}

/** Runs the suite once per database kind present; PostgreSQL's absence was announced by the global setup. */
export function describeOnDatabases(name: string, suite: (kind: DatabaseKind) => void): void {
  describe.each(availableDatabaseKinds())(`${name} [%s]`, suite);
}

export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-relay-'));
  const removeDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  if (kind === 'sqlite') {
    return { kind, dataDir, database: { kind: 'sqlite', file: path.join(dataDir, 'relay.sqlite') }, drop: async () => removeDir() };
  }
  const url = inject('postgresUrl');
  // Dropped by the global setup's teardown at the end of the run, never mid-run (see test/global-setup.ts).
  const schema = `lw_test_${inject('testRunId')}_${randomBytes(6).toString('hex')}`;
  await withClient(url, async (client) => {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(`create schema ${schema}`);
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
  });
  return {
    kind,
    dataDir,
    database: { kind: 'postgres', url, schema },
    drop: async () => removeDir(),
  };
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
