// A second process on the local store, for the suite's cross-process cases (started by
// startStoreProcess in store-drivers.ts):
//   hold-run-lock DIR DRIVER   takes DIR's run lock, prints "locked", and holds it until killed;
//   write-jobs DIR DRIVER      receives jobs in batches of WRITE_BATCH (one transaction each) until
//                              killed, printing "writing" after the first batch.
import { acquireRunLock } from '../../src/core/service/run-lock.js';
import { JobStore } from '../../src/core/state/job-store.js';
import { openLocalDatabase } from '../../src/core/state/local-database.js';
import type { SqliteDriverName } from '../../src/core/state/sqlite-connection.js';
import { journalDocument, voucherJob } from '../helpers/job-fixtures.js';
import { WRITE_BATCH } from './store-drivers.js';

const [role, dataDir, driver] = process.argv.slice(2) as [string, string, SqliteDriverName];
const company = { guid: 'c0a80001-0000-4000-8000-00000000000b', name: 'Backup Traders' };

if (role === 'hold-run-lock') {
  const lock = acquireRunLock(dataDir, driver);
  process.stdout.write('locked\n');
  // Kept reachable: a collected connection is closed by its driver, and the lock goes with it.
  setInterval(() => lock, 60_000);
} else if (role === 'write-jobs') {
  const jobs = new JobStore(openLocalDatabase(dataDir, driver));
  let batches = 0;
  const writeBatch = () => {
    jobs.receive(Array.from({ length: WRITE_BATCH }, (_, n) => voucherJob(company, journalDocument(`BK-${batches}-${n}`))));
    batches += 1;
    if (batches === 1) process.stdout.write('writing\n');
    // A little room between batches, so the copies see the file grow without it growing large.
    setTimeout(writeBatch, 1);
  };
  writeBatch();
} else {
  process.stderr.write(`unknown role ${role}\n`);
  process.exitCode = 2;
}
