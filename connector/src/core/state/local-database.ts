// The connector's local state: one SQLite file under the data directory, readable only by the user
// (it holds the connector's own credential). Schema changes are numbered steps keyed on user_version.
// It opens on either SQLite driver (open-sqlite-connection.ts): the file is the same on both.
import fs from 'node:fs';
import path from 'node:path';
import { openSqliteConnection } from './open-sqlite-connection.js';
import type { SqliteConnection, SqliteDriverChoice, SqliteStatement } from './sqlite-connection.js';

export type LocalDatabase = SqliteConnection;

/** The schema's steps: user_version n means the first n have run. */
export const LOCAL_DATABASE_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE pairings (
    company_id INTEGER PRIMARY KEY,
    books_company_guid TEXT NOT NULL,
    books_company_name TEXT NOT NULL,
    confirmed INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT NOT NULL
  );
  -- One row per job the relay handed over (dedupe on job_id). state: queued → importing → settled.
  -- 'importing' is written before the import is sent: after a crash it means "outcome unknown".
  CREATE TABLE jobs (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    job_id TEXT NOT NULL UNIQUE,
    company_id INTEGER NOT NULL,
    books_company_guid TEXT NOT NULL,
    books_company_name TEXT NOT NULL,
    job_type TEXT NOT NULL,
    event_type TEXT NOT NULL,
    xml TEXT NOT NULL,
    remote_id TEXT NOT NULL,
    books_voucher_guid TEXT,
    attempt INTEGER NOT NULL,
    state TEXT NOT NULL,
    outcome TEXT,
    reported INTEGER NOT NULL DEFAULT 0,
    received_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX jobs_open ON jobs (state, seq);
  CREATE INDEX jobs_outbox ON jobs (reported, state);
  CREATE TABLE sync_cursors (
    company_id INTEGER NOT NULL,
    kind TEXT NOT NULL,
    cursor TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (company_id, kind)
  );
  CREATE TABLE sync_runs (
    company_id INTEGER PRIMARY KEY,
    last_sync_at TEXT,
    last_result TEXT,
    last_error TEXT,
    passes INTEGER NOT NULL DEFAULT 0
  );
  -- What the relay holds per company (sent and confirmed), for the deletion diff.
  CREATE TABLE known_objects (
    company_id INTEGER NOT NULL,
    guid TEXT NOT NULL,
    object TEXT NOT NULL,
    alter_id TEXT NOT NULL,
    PRIMARY KEY (company_id, guid)
  ) WITHOUT ROWID;
  CREATE TABLE log (id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, level TEXT NOT NULL, message TEXT NOT NULL);
  `,
  // A job's XML in a row of its own, written once: SQLite rewrites the whole row on every update, and a
  // job's state changes three or four times.
  `
  CREATE TABLE job_documents (seq INTEGER PRIMARY KEY, xml TEXT NOT NULL);
  INSERT INTO job_documents (seq, xml) SELECT seq, xml FROM jobs;
  ALTER TABLE jobs DROP COLUMN xml;
  `,
  // The open jobs and the outbox as partial indexes: a job is in each only while it is open, or settled
  // and not reported, so receiving, settling and reporting a job write two, two and one index entries
  // (with the whole-table indexes: three, four and two). Settled jobs kept for days are in neither.
  `
  DROP INDEX jobs_open;
  DROP INDEX jobs_outbox;
  CREATE INDEX jobs_open ON jobs (seq) WHERE state IN ('queued', 'importing');
  CREATE INDEX jobs_outbox ON jobs (seq) WHERE state = 'settled' AND reported = 0;
  `,
];

/** Creates the data directory and a database file in it (0700 / 0600) before SQLite touches them. */
export function prepareFiles(dataDir: string, file: string): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // SQLite gives its -wal and -shm files the permissions of the database file, so fix those first.
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  fs.chmodSync(file, 0o600);
}

export function databasePath(dataDir: string): string {
  return path.join(dataDir, 'connector.db');
}

/**
 * The stores run a small fixed set of SQL texts, many per job; compiling a statement costs more than
 * running it, so each text is compiled once and kept. A kept statement still being iterated (a
 * generator left open) cannot run again, so a second user of that text gets a fresh one.
 */
function keepPreparedStatements(db: SqliteConnection): void {
  const compile = db.prepare.bind(db);
  const kept = new Map<string, SqliteStatement>();
  db.prepare = (sql: string) => {
    const statement = kept.get(sql);
    if (statement && !statement.busy) return statement;
    const fresh = compile(sql);
    if (!statement) kept.set(sql, fresh);
    return fresh;
  };
}

/** Opens (creating it if need be) and migrates the data directory's database, on the driver chosen. */
export function openLocalDatabase(dataDir: string, driver: SqliteDriverChoice = 'auto'): LocalDatabase {
  const file = databasePath(dataDir);
  prepareFiles(dataDir, file);
  const db = openSqliteConnection(file, driver);
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode survives a crash of this process (only power loss can drop the last commits),
  // and a job that lost its 'importing' mark that way is still not booked twice: its import carries the
  // REMOTEID the books match. FULL would fsync on every job state change.
  db.pragma('synchronous = NORMAL');
  keepPreparedStatements(db);
  const current = Number(db.pragma('user_version'));
  for (let version = current; version < LOCAL_DATABASE_MIGRATIONS.length; version += 1) {
    db.transaction(() => {
      db.exec(LOCAL_DATABASE_MIGRATIONS[version] ?? '');
      db.pragma(`user_version = ${version + 1}`);
    });
  }
  return db;
}
