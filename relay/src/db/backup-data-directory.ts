// `npm run admin -- backup DIR`: a consistent online copy of a SQLite relay while it runs. SQLite's
// backup API copies the live database in one step (one read snapshot, so every committed write up to
// that instant and nothing half-written), into a new directory that is itself a DATA_DIR: the
// installation's small files (the operator token digest) go with it, and a relay started with
// DATA_DIR=DIR serves what was written before the copy. PostgreSQL is backed up with its own tools
// (pg_dump / pg_restore, see the README); this refuses and says so.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { RelayConfig } from '../config/load-config.js';

export type BackupReport = Readonly<{
  target: string;
  database: string;
  database_bytes: number;
  files: readonly string[];
  taken_at: string;
}>;

export const BACKUP_MANIFEST = 'backup.json';

/** The database file and its WAL companions are copied through the backup API, never as files. */
function isDatabaseFile(name: string, databaseFile: string): boolean {
  const base = path.basename(databaseFile);
  return name === base || name === `${base}-wal` || name === `${base}-shm` || name === `${base}-journal`;
}

export async function backupDataDirectory(config: RelayConfig, targetDir: string): Promise<BackupReport> {
  if (config.database.kind !== 'sqlite') {
    throw new Error('This relay runs on PostgreSQL: back it up with pg_dump (and restore with pg_restore), as the README describes');
  }
  const source = config.database.file;
  const target = path.resolve(targetDir);
  if (path.resolve(config.dataDir) === target) throw new Error('The backup directory must not be the relay\'s own DATA_DIR');
  if (fs.existsSync(target) && fs.readdirSync(target).length > 0) throw new Error(`${target} is not empty: back up into a new or empty directory`);
  if (!fs.existsSync(source)) throw new Error(`There is no relay database at ${source}`);
  fs.mkdirSync(target, { recursive: true, mode: 0o700 });

  const takenAt = new Date().toISOString();
  const databaseTarget = path.join(target, path.basename(source));
  const partial = `${databaseTarget}.partial`;
  const connection = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    connection.pragma('busy_timeout = 10000');
    // The first step learns the page count; the second copies every page at once (0x7fffffff =
    // all): one read transaction, so the copy is one instant of the database.
    await connection.backup(partial, { progress: () => 0x7fffffff });
  } finally {
    connection.close();
  }
  fs.renameSync(partial, databaseTarget);

  const files: string[] = [];
  for (const entry of fs.readdirSync(config.dataDir, { withFileTypes: true })) {
    if (!entry.isFile() || isDatabaseFile(entry.name, source) || entry.name.endsWith('.tmp')) continue;
    fs.copyFileSync(path.join(config.dataDir, entry.name), path.join(target, entry.name), fs.constants.COPYFILE_EXCL);
    files.push(entry.name);
  }
  const report: BackupReport = { target, database: path.basename(source), database_bytes: fs.statSync(databaseTarget).size, files, taken_at: takenAt };
  fs.writeFileSync(path.join(target, BACKUP_MANIFEST), `${JSON.stringify({ ...report, source_data_dir: config.dataDir }, null, 2)}\n`, { mode: 0o600 });
  return report;
}
