// Opens the relay's database: embedded SQLite (WAL, busy timeout) by default, PostgreSQL when
// DATABASE_URL is set. Returns the Kysely handle with the dialect's capability table.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { RelayConfig } from '../config/load-config.js';
import { postgresCapabilities, sqliteCapabilities, type DialectCapabilities } from './capabilities.js';
import type { Database } from './schema.js';

export type RelayDatabase = Readonly<{
  db: Kysely<Database>;
  capabilities: DialectCapabilities;
  /** Answers when the database does; used by /readyz. */
  ping(): Promise<boolean>;
  destroy(): Promise<void>;
}>;

// PostgreSQL returns BIGINT (count(*), sums) as strings by default; ours fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export function openDatabase(database: RelayConfig['database']): RelayDatabase {
  if (database.kind === 'sqlite') {
    fs.mkdirSync(path.dirname(database.file), { recursive: true, mode: 0o700 });
    const connection = new SQLite(database.file);
    connection.pragma('journal_mode = WAL');
    connection.pragma('busy_timeout = 5000');
    connection.pragma('foreign_keys = ON');
    connection.pragma('synchronous = NORMAL');
    return wrap(new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }) }), sqliteCapabilities);
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

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; preparing costs more than running most of ours. The relay's
 * queries are a small fixed set of SQL strings, so prepared statements are kept by SQL text.
 * Safe because Kysely holds the single SQLite connection under a mutex while a statement runs.
 */
function withStatementCache(connection: SQLite.Database) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    prepare(sql: string): SQLite.Statement {
      let statement = statements.get(sql);
      if (!statement) {
        statement = connection.prepare(sql);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value ?? '');
        statements.set(sql, statement);
      }
      return statement;
    },
    close(): void {
      statements.clear();
      connection.close();
    },
  };
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
