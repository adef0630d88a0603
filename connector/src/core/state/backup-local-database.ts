// `npm run connector -- backup DIR`: a consistent copy of the connector's local state while it runs.
// SQLite's backup API copies connector.db in one read snapshot (every committed job state up to that
// instant, nothing half-written, whatever the running connector does meanwhile), into a new directory
// that is itself a connector data directory: the connector's credential, relay and books settings and
// pairings live in that database, so `--data DIR` starts the same connector, with its queue.
// What a restored queue holds that the relay already has is harmless: every voucher import carries its
// job's REMOTEID, so one imported after the copy is matched in the books, not booked again (job-runner.ts).
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { runLockPath } from '../service/run-lock.js';
import { databasePath } from './local-database.js';

export const CONNECTOR_BACKUP_MANIFEST = 'backup.json';

/** Files of a running connector that describe that process, not its state: never copied. */
const PROCESS_FILES = ['status.json', CONNECTOR_BACKUP_MANIFEST];

/** The database and its companions (-wal, -shm) go through the backup API; the run lock is a process's. */
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

export async function backupLocalDatabase(dataDir: string, targetDir: string): Promise<ConnectorBackupReport> {
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
  const connection = new Database(source, { readonly: true, fileMustExist: true });
  try {
    connection.pragma('busy_timeout = 10000');
    // All pages in one step (0x7fffffff): one read transaction, so the copy is one instant of the queue.
    await connection.backup(partial, { progress: () => 0x7fffffff });
  } finally {
    connection.close();
  }
  // It holds the connector's own credential: owner only, as the original.
  fs.chmodSync(partial, 0o600);
  fs.renameSync(partial, databaseTarget);

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
