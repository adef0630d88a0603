// The databases an API bench runs the relay on: embedded SQLite in a temporary directory, and
// PostgreSQL (BENCH_POSTGRES_URL or BENCH_DATABASE_URL, default the development server) in a fresh
// schema of its own that is dropped afterwards, as the relay's test helpers isolate theirs.
// BENCH_DATABASES=sqlite (or postgres) runs one of them only; an unreachable PostgreSQL is reported
// and skipped.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { MIGRATION_LOCK_KEY } from '@ledgerwire/relay';

export type BenchDatabase = Readonly<{
  label: 'SQLite' | 'PostgreSQL';
  /** The relay's environment for this database (DATA_DIR, and DATABASE_URL / DATABASE_SCHEMA). */
  env: Record<string, string>;
  drop(): Promise<void>;
}>;

// BENCH_DATABASE_URL is read too: briefs and notes have named the variable so, and a server given
// under that name must not be silently replaced by the default.
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function withClient<T>(work: (client: pg.Client) => Promise<T>, url = POSTGRES_URL): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function sqlite(prefix: string): BenchDatabase {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { label: 'SQLite', env: { DATA_DIR: dataDir }, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
}

/**
 * A schema of its own on the PostgreSQL server at `url`, and how to drop it. Both hold the relay's
 * migration lock, as the test helpers do: a relay migrating meanwhile (a test run beside the bench)
 * scans every schema and fails on one that vanishes under it.
 */
export async function freshPostgresSchema(url = POSTGRES_URL): Promise<{ schema: string; drop(): Promise<void> }> {
  const schema = `lw_bench_${randomBytes(6).toString('hex')}`;
  const underLock = (text: string) =>
    withClient(async (client) => {
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      try {
        await client.query(text);
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      }
    }, url);
  await underLock(`create schema ${schema}`);
  return { schema, drop: () => underLock(`drop schema if exists ${schema} cascade`) };
}

async function postgres(prefix: string): Promise<BenchDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const { schema, drop } = await freshPostgresSchema();
  return {
    label: 'PostgreSQL',
    env: { DATA_DIR: dataDir, DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema },
    drop: async () => {
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs `work` once per database asked for, each dropped afterwards whatever happens. */
export async function forEachDatabase(prefix: string, work: (database: BenchDatabase) => Promise<void>): Promise<void> {
  const wanted = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',').map((name) => name.trim());
  for (const kind of wanted) {
    let database: BenchDatabase;
    if (kind === 'sqlite') database = sqlite(prefix);
    else if (kind === 'postgres') {
      try {
        database = await postgres(prefix);
      } catch (error) {
        process.stdout.write(`PostgreSQL at ${POSTGRES_URL} not reachable (${(error as Error).message}): skipped\n`);
        continue;
      }
    } else throw new Error(`BENCH_DATABASES: unknown database "${kind}" (sqlite, postgres)`);
    try {
      await work(database);
    } finally {
      await database.drop();
    }
  }
}
