// `npm run connector -- backup DIR`: a consistent copy of the connector's local state while it runs.
// SQLite's VACUUM INTO writes connector.db's content as of one read snapshot (every committed job state
// up to that instant, nothing half-written, whatever the running connector does meanwhile) into a new
// directory that is itself a connector data directory: the connector's credential, relay and books
// settings and pairings live in that database, so `--data DIR` starts the same connector, with its queue.
// VACUUM INTO is plain SQL, so both SQLite drivers take the copy the same way (node:sqlite on Node 22.x
// has its backup() only from 22.16); the copy runs in this command's own process, which it may block.
// What a restored queue holds that the relay already has is harmless: every voucher import carries its
// job's REMOTEID, so one imported after the copy is matched in the books, not booked again (job-runner.ts).
import fs from 'node:fs';
import path from 'node:path';
import { runLockPath } from '../service/run-lock.js';
import { databasePath } from './local-database.js';
import { openSqliteConnection } from './open-sqlite-connection.js';
import type { SqliteDriverChoice } from './sqlite-connection.js';

export const CONNECTOR_BACKUP_MANIFEST = 'backup.json';

/** Files of a running connector that describe that process, not its state: never copied. */
const PROCESS_FILES = ['status.json', CONNECTOR_BACKUP_MANIFEST];

/** The database and its companions (-wal, -shm) are copied by SQLite; the run lock is a process's. */
function isCopiedAsFile(name: string): boolean {
  if (name.endsWith('.tmp') || PROCESS_FILES.includes(name)) return false;
  return ![path.basename(databasePath('.')), path.basename(runLockPath('.'))].some((base) => name === base || name.startsWith(`${base}-`));
}

export type ConnectorBackupReport = Readonly<{
  target: string;
  database: string;
  database_bytes: number;
  /** Other files of the data directory copied beside the database. */
  files: readonly string[];
  taken_at: string;
}>;

export async function backupLocalDatabase(dataDir: string, targetDir: string, driver: SqliteDriverChoice = 'auto'): Promise<ConnectorBackupReport> {
  const source = databasePath(dataDir);
  const target = path.resolve(targetDir);
  if (path.resolve(dataDir) === target) throw new Error("The backup directory must not be the connector's own data directory");
  if (fs.existsSync(target) && fs.readdirSync(target).length > 0) throw new Error(`${target} is not empty: back up into a new or empty directory`);
  if (!fs.existsSync(source)) throw new Error(`There is no connector database at ${source}`);
  fs.mkdirSync(target, { recursive: true, mode: 0o700 });

  const takenAt = new Date().toISOString();
  const databaseTarget = databasePath(target);
  const partial = `${databaseTarget}.partial`;
  // Read-only: the copy never writes to the live database, and never runs its migrations.
  const connection = openSqliteConnection(source, driver, { readOnly: true, busyTimeoutMs: 10_000 });
  try {
    // One statement, one read transaction: the copy is one instant of the queue.
    connection.prepare('VACUUM INTO ?').run(partial);
  } finally {
    connection.close();
  }
  // It holds the connector's own credential: owner only, as the original. SQLite does not sync a
  // VACUUM INTO file, so it is synced here before it takes its name.
  fs.chmodSync(partial, 0o600);
  syncFile(partial);
  fs.renameSync(partial, databaseTarget);
  syncDirectory(target);

  const files: string[] = [];
  for (const entry of fs.readdirSync(dataDir, { withFileTypes: true })) {
    const name = entry.name;
    if (!entry.isFile() || !isCopiedAsFile(name)) continue;
    fs.copyFileSync(path.join(dataDir, name), path.join(target, name), fs.constants.COPYFILE_EXCL);
    files.push(name);
  }
  const report: ConnectorBackupReport = { target, database: path.basename(source), database_bytes: fs.statSync(databaseTarget).size, files, taken_at: takenAt };
  const manifest = { ...report, source_data_dir: path.resolve(dataDir) };
  fs.writeFileSync(path.join(target, CONNECTOR_BACKUP_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  return report;
}

function syncFile(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** The rename durable too; Windows cannot open a directory to sync it, and needs not. */
function syncDirectory(dir: string): void {
  if (process.platform === 'win32') return;
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
