// The run lock and the backup on each SQLite driver, against a real second process: a lock another
// process holds is refused until that process is killed outright (SIGKILL, no clean-up of its own),
// and copies taken while another process writes jobs are each one whole instant of the queue.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireRunLock, ConnectorAlreadyRunningError, runLockPath } from '../../src/core/service/run-lock.js';
import { backupLocalDatabase, CONNECTOR_BACKUP_MANIFEST } from '../../src/core/state/backup-local-database.js';
import { LOCAL_DATABASE_MIGRATIONS, openLocalDatabase } from '../../src/core/state/local-database.js';
import { openSqliteConnection } from '../../src/core/state/open-sqlite-connection.js';
import { isSqliteLockError } from '../../src/core/state/sqlite-connection.js';
import { driversUnderTest, startStoreProcess, tempDir, WRITE_BATCH, type StoreProcess } from './store-drivers.js';

/** Copies until this many different queue lengths were seen, each taken while the writer went on. */
const DISTINCT_COPIES = 3;

describe.each(driversUnderTest())('run lock and backup on %s', (driver) => {
  const started: StoreProcess[] = [];
  afterEach(async () => {
    for (const store of started.splice(0)) {
      store.child.kill('SIGKILL');
      await store.exited;
    }
  });

  it('refuses the run lock while another process holds it, and grants it once that process is killed', async () => {
    const dataDir = tempDir();
    const holder = startStoreProcess('hold-run-lock', dataDir, driver);
    started.push(holder);
    await holder.line('locked');
    expect(() => acquireRunLock(dataDir, driver)).toThrow(ConnectorAlreadyRunningError);
    expect(() => acquireRunLock(dataDir, driver)).toThrow(`Another connector is already running with the data directory ${dataDir}. Stop it first`);

    holder.child.kill('SIGKILL');
    await holder.exited;
    const lock = acquireRunLock(dataDir, driver);
    // Held here now: a second holder in this process is refused the same way.
    expect(() => acquireRunLock(dataDir, driver)).toThrow(ConnectorAlreadyRunningError);
    lock.release();
    acquireRunLock(dataDir, driver).release();
  });

  it('recognises a lock error from the driver itself, and nothing else', () => {
    const dataDir = tempDir();
    const lock = acquireRunLock(dataDir, driver);
    const reader = openSqliteConnection(runLockPath(dataDir), driver, { busyTimeoutMs: 0 });
    const failureOf = (sql: string): unknown => {
      try {
        reader.exec(sql);
      } catch (error) {
        return error;
      }
      throw new Error(`${sql} did not fail`);
    };
    try {
      expect(isSqliteLockError(failureOf('SELECT * FROM holder'))).toBe(true);
      expect(isSqliteLockError(failureOf('SELEC 1'))).toBe(false);
    } finally {
      reader.close();
      lock.release();
    }
  });

  it('backs up one consistent instant of the queue while another process writes it', async () => {
    const dataDir = tempDir();
    openLocalDatabase(dataDir, driver).close();
    fs.writeFileSync(path.join(dataDir, 'connector.log'), 'a log line\n');
    const writer = startStoreProcess('write-jobs', dataDir, driver);
    started.push(writer);
    await writer.line('writing');

    const seen = new Set<number>();
    for (let copy = 0; seen.size < DISTINCT_COPIES; copy += 1) {
      expect(copy, `copies taken before ${DISTINCT_COPIES} different queue lengths were seen`).toBeLessThan(200);
      const target = path.join(tempDir(), 'copy');
      const report = await backupLocalDatabase(dataDir, target, driver);
      expect(report).toMatchObject({ target, database: 'connector.db', files: ['connector.log'] });
      expect(fs.readdirSync(target).sort()).toEqual([CONNECTOR_BACKUP_MANIFEST, 'connector.db', 'connector.log']);
      expect(fs.statSync(path.join(target, 'connector.db')).mode & 0o777).toBe(0o600);

      const restored = openLocalDatabase(target, driver);
      try {
        expect(restored.pragma('integrity_check')).toBe('ok');
        expect(restored.pragma('user_version')).toBe(LOCAL_DATABASE_MIGRATIONS.length);
        const { jobs, documents } = restored.prepare('SELECT (SELECT COUNT(*) FROM jobs) AS jobs, (SELECT COUNT(*) FROM job_documents) AS documents').get() as {
          jobs: number;
          documents: number;
        };
        // Every batch is one transaction: a copy of one instant holds whole batches, each job with its XML.
        expect(jobs % WRITE_BATCH).toBe(0);
        expect(documents).toBe(jobs);
        expect(jobs).toBeGreaterThan(0);
        seen.add(jobs);
      } finally {
        restored.close();
      }
    }
    expect(writer.child.exitCode).toBeNull();
  });
});
