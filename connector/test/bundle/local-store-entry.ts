// The entry of the bundles sqlite-driver-bundle.test.ts builds: the local store as a bundled connector
// uses it, on the driver the configuration chooses. Takes a data directory; writes a setting, holds the
// run lock, backs the database up, and prints what it saw as one JSON line.
import fs from 'node:fs';
import { loadConnectorConfig } from '../../src/core/config/load-config.js';
import { acquireRunLock } from '../../src/core/service/run-lock.js';
import { backupLocalDatabase } from '../../src/core/state/backup-local-database.js';
import { openLocalDatabase } from '../../src/core/state/local-database.js';
import { SettingsStore } from '../../src/core/state/settings-store.js';

async function main(): Promise<void> {
  const config = loadConnectorConfig({ dataDir: process.argv[2] });
  const lock = acquireRunLock(config.dataDir, config.sqliteDriver);
  const db = openLocalDatabase(config.dataDir, config.sqliteDriver);
  try {
    new SettingsStore(db).saveBooksUrl('http://192.168.1.20:9000');
    const backup = await backupLocalDatabase(config.dataDir, `${config.dataDir}-backup`, config.sqliteDriver);
    const copy = openLocalDatabase(backup.target, config.sqliteDriver);
    const booksUrl = new SettingsStore(copy).booksUrl();
    copy.close();
    process.stdout.write(`${JSON.stringify({ driver: db.driver, booksUrl, backupFiles: fs.readdirSync(backup.target).sort() })}\n`);
  } finally {
    db.close();
    lock.release();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
