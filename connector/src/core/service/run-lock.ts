// One running connector per data directory. Two would share one database but not the memory each
// keeps of it (open jobs, acknowledgements), take the relay link from each other again and again
// ("a newer connection of this connector took over") and each send the same jobs to the books.
// The lock is an exclusive SQLite lock on a file of its own, held for as long as the connector runs:
// the operating system drops it when the process ends however it ends (SIGKILL, a crash, a power cut),
// so no stale lock file ever has to be cleared by hand. `enroll`, `pair` and `status` take no lock:
// they may run beside a running connector.
import path from 'node:path';
import { prepareFiles } from '../state/local-database.js';
import { openSqliteConnection } from '../state/open-sqlite-connection.js';
import { isSqliteLockError, type SqliteDriverChoice } from '../state/sqlite-connection.js';
import { readLiveStatusFile } from './status-file.js';

export class ConnectorAlreadyRunningError extends Error {
  constructor(readonly dataDir: string, readonly pid: number | undefined) {
    super(
      `Another connector is already running with the data directory ${dataDir}${pid === undefined ? '' : ` (process ${pid})`}. ` +
        'Stop it first, or give this one a data directory of its own with --data.',
    );
    this.name = 'ConnectorAlreadyRunningError';
  }
}

/** Keep it reachable while the connector runs: a driver closes a collected connection, and the lock goes with it. */
export type RunLock = Readonly<{ release(): void }>;

export function runLockPath(dataDir: string): string {
  return path.join(dataDir, 'connector.lock');
}

/** Takes the data directory's run lock, or throws ConnectorAlreadyRunningError at once if another process holds it. */
export function acquireRunLock(dataDir: string, driver: SqliteDriverChoice = 'auto'): RunLock {
  const file = runLockPath(dataDir);
  prepareFiles(dataDir, file);
  // No waiting: a lock another process holds means that process runs.
  const db = openSqliteConnection(file, driver, { busyTimeoutMs: 0 });
  try {
    // In EXCLUSIVE locking mode the lock a write takes is kept after its commit, until the connection closes.
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, started_at TEXT NOT NULL)');
    db.transaction(() => {
      db.exec('DELETE FROM holder');
      db.prepare('INSERT INTO holder (pid, started_at) VALUES (?, ?)').run(process.pid, new Date().toISOString());
    });
  } catch (error) {
    db.close();
    if (isSqliteLockError(error)) throw new ConnectorAlreadyRunningError(dataDir, readLiveStatusFile(dataDir)?.pid);
    throw error;
  }
  return { release: () => db.close() };
}
