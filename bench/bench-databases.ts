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

export type BenchDatabase = Readonly<{
  label: 'SQLite' | 'PostgreSQL';
  /** The relay's environment for this database (DATA_DIR, and DATABASE_URL / DATABASE_SCHEMA). */
  env: Record<string, string>;
  drop(): Promise<void>;
}>;

// BENCH_DATABASE_URL is read too: briefs and notes have named the variable so, and a server given
// under that name must not be silently replaced by the default.
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function withClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
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

async function postgres(prefix: string): Promise<BenchDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const schema = `lw_bench_${randomBytes(6).toString('hex')}`;
  await withClient((client) => client.query(`create schema ${schema}`));
  return {
    label: 'PostgreSQL',
    env: { DATA_DIR: dataDir, DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema },
    drop: async () => {
      await withClient((client) => client.query(`drop schema if exists ${schema} cascade`));
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
