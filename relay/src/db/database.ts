// Opens the relay's database: embedded SQLite (WAL; statements on the event loop, checkpoints on a
// thread of their own, see sqlite-dialect.ts) by default, PostgreSQL when DATABASE_URL is set. Returns
// the Kysely handle with the dialect's capability table.
import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { RelayConfig } from '../config/load-config.js';
import { postgresCapabilities, sqliteCapabilities, type DialectCapabilities } from './capabilities.js';
import type { Database } from './schema.js';
import { EmbeddedSqliteDialect, type EmbeddedSqliteOptions } from './sqlite-dialect.js';

export type RelayDatabase = Readonly<{
  db: Kysely<Database>;
  capabilities: DialectCapabilities;
  /** Answers when the database does; used by /readyz. */
  ping(): Promise<boolean>;
  destroy(): Promise<void>;
}>;

// PostgreSQL returns BIGINT (count(*), sums) as strings by default; ours fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type OpenDatabaseOptions = Readonly<{
  /** Told when SQLite's checkpoint thread fails (its automatic checkpoints are back on then). */
  onBackgroundError?: (error: Error) => void;
  /** Told after each SQLite checkpoint its thread ran (tests watch the WAL with it). */
  onSqliteCheckpoint?: EmbeddedSqliteOptions['onCheckpoint'];
}>;

export function openDatabase(database: RelayConfig['database'], options: OpenDatabaseOptions = {}): RelayDatabase {
  if (database.kind === 'sqlite') {
    fs.mkdirSync(path.dirname(database.file), { recursive: true, mode: 0o700 });
    const dialect = new EmbeddedSqliteDialect({
      file: database.file,
      // journal_size_limit: the WAL file is cut back to 32 MiB when it starts afresh.
      pragmas: ['journal_mode = WAL', 'foreign_keys = ON', 'synchronous = NORMAL', 'journal_size_limit = 33554432'],
      busyWaitMs: 5000,
      ...(options.onBackgroundError ? { onCheckpointFailure: options.onBackgroundError } : {}),
      ...(options.onSqliteCheckpoint ? { onCheckpoint: options.onSqliteCheckpoint } : {}),
    });
    return wrap(new Kysely<Database>({ dialect }), sqliteCapabilities);
  }
  const pool = new pg.Pool({
    connectionString: database.url,
    max: 10,
    ...(database.schema ? { options: `-c search_path=${database.schema}` } : {}),
  });
  // A client that loses its server (PostgreSQL restarted, a network cut) must not crash the process:
  // the pool's own listener covers idle clients, and this one covers clients checked out between two
  // statements (a Kysely transaction, a claim), whose 'error' event nobody else hears. The query in
  // flight, or the next one, reports the failure to its caller.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return wrap(new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), postgresCapabilities);
}

function wrap(db: Kysely<Database>, capabilities: DialectCapabilities): RelayDatabase {
  return Object.freeze({
    db,
    capabilities,
    async ping() {
      try {
        await sql`select 1`.execute(db);
        return true;
      } catch {
        return false;
      }
    },
    destroy: () => db.destroy(),
  });
}
