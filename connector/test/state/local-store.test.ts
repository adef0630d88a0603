// The connector's local store on each SQLite driver it runs on (store-drivers.ts says which): the
// schema from an empty file and from every older user_version, each store's behaviour, transactions
// that roll back, and compiled statements kept and iterated. The same file and the same SQL on either
// driver must give the same answers.
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { testClock } from '@ledgerwire/test-kit';
import { JobStore } from '../../src/core/state/job-store.js';
import { databasePath, LOCAL_DATABASE_MIGRATIONS, openLocalDatabase, type LocalDatabase } from '../../src/core/state/local-database.js';
import { LogStore } from '../../src/core/state/log-store.js';
import { openSqliteConnection } from '../../src/core/state/open-sqlite-connection.js';
import { PairingStore } from '../../src/core/state/pairing-store.js';
import { SettingsStore } from '../../src/core/state/settings-store.js';
import { SyncStateStore } from '../../src/core/state/sync-state-store.js';
import { journalDocument, voucherJob } from '../helpers/job-fixtures.js';
import { driversUnderTest, tempDir } from './store-drivers.js';

const company = { guid: 'c0a80001-0000-4000-8000-00000000000a', name: 'Store Traders' };
const completed = { status: 'completed' as const, books_voucher_guid: null, books_master_id: null };
const enrolment = { relayUrl: 'https://relay.example', connectorId: 'con_1', credential: 'secret-credential', machineName: 'SHOP-PC' };
const T0 = new Date('2026-05-01T10:00:00.000Z');
const NEWEST = LOCAL_DATABASE_MIGRATIONS.length;
const KNOWN_GUIDS_SQL = 'SELECT guid FROM known_objects WHERE company_id = ? AND object = ? ORDER BY guid';

describe.each(driversUnderTest())('local store on %s', (driver) => {
  const opened: LocalDatabase[] = [];
  afterEach(() => {
    for (const db of opened.splice(0)) db.close();
  });

  function open(dataDir = tempDir()): LocalDatabase {
    const db = openLocalDatabase(dataDir, driver);
    opened.push(db);
    return db;
  }

  it('creates the newest schema in a new data directory: WAL, synchronous NORMAL, a 5 s busy timeout, owner-only', () => {
    const dataDir = tempDir();
    const db = open(dataDir);
    expect(db.driver).toBe(driver);
    expect(db.pragma('user_version')).toBe(NEWEST);
    expect(db.pragma('journal_mode')).toBe('wal');
    expect(db.pragma('synchronous')).toBe(1);
    expect(db.pragma('busy_timeout')).toBe(5000);
    expect(fs.statSync(databasePath(dataDir)).mode & 0o777).toBe(0o600);
  });

  it.each(Array.from({ length: NEWEST }, (_, version) => version))('upgrades a database left at user_version %i, keeping what it held', (version) => {
    const dataDir = tempDir();
    const job = voucherJob(company, journalDocument(`UP-${version}`));
    if (version > 0) {
      const old = openSqliteConnection(databasePath(dataDir), driver);
      for (const step of LOCAL_DATABASE_MIGRATIONS.slice(0, version)) old.exec(step);
      old.pragma(`user_version = ${version}`);
      old.prepare("INSERT INTO settings (key, value) VALUES ('books_url', 'http://192.168.1.20:9000')").run();
      old.prepare("INSERT INTO pairings VALUES (7, ?, ?, 1, '2026-04-01T00:00:00.000Z')").run(company.guid, company.name);
      // Version 1 kept a job's XML in its row; later versions in job_documents.
      const columns = version === 1 ? ', xml' : '';
      const values = [job.job_id, job.company_id, company.guid, company.name, job.job_type, job.event_type, job.remote_id, job.attempt];
      const inserted = old
        .prepare(
          `INSERT INTO jobs (job_id, company_id, books_company_guid, books_company_name, job_type, event_type, remote_id, attempt,
             state, received_at, updated_at${columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?${version === 1 ? ', ?' : ''})`,
        )
        .run(...values, T0.toISOString(), T0.toISOString(), ...(version === 1 ? [job.xml] : []));
      if (version > 1) old.prepare('INSERT INTO job_documents (seq, xml) VALUES (?, ?)').run(inserted.lastInsertRowid, job.xml);
      old.close();
    }

    const db = open(dataDir);
    expect(db.pragma('user_version')).toBe(NEWEST);
    const openIndex = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'jobs_open'").get() as { sql: string };
    expect(openIndex.sql).toContain("WHERE state IN ('queued', 'importing')");
    if (version === 0) {
      expect(new JobStore(db).counts()).toEqual({ waiting: 0, importing: 0, unreported: 0, settled: 0 });
      return;
    }
    expect(new SettingsStore(db).booksUrl()).toBe('http://192.168.1.20:9000');
    expect(new PairingStore(db).list()).toEqual([{ companyId: 7, booksCompanyGuid: company.guid, booksCompanyName: company.name, confirmed: true }]);
    expect(new JobStore(db).open().map((stored) => [stored.jobId, stored.state, stored.xml])).toEqual([[job.job_id, 'queued', job.xml]]);
  });

  it('keeps jobs: each received once, a redelivery raising its attempt, settled, reported and pruned', () => {
    const db = open();
    const clock = testClock(T0.getTime());
    const jobs = new JobStore(db, clock.date);
    const [a, b] = [voucherJob(company, journalDocument('ST-1')), voucherJob(company, journalDocument('ST-2'))];
    expect(jobs.receive([a, b]).map(({ isNew }) => isNew)).toEqual([true, true]);
    expect(jobs.receive([{ ...a, attempt: 2 }])).toMatchObject([{ isNew: false, job: { jobId: a.job_id, attempt: 2 } }]);
    expect(jobs.open().map((job) => [job.jobId, job.state, job.attempt, job.xml])).toEqual([
      [a.job_id, 'queued', 2, a.xml],
      [b.job_id, 'queued', 1, b.xml],
    ]);

    jobs.markImporting([a.job_id, b.job_id]);
    jobs.markQueued([b.job_id]);
    expect(jobs.counts()).toEqual({ waiting: 1, importing: 1, unreported: 0, settled: 0 });
    clock.set(T0.getTime() + 1000);
    const [openA] = jobs.open();
    expect(jobs.settle([{ job: openA!, outcome: completed }])).toMatchObject([{ jobId: a.job_id, state: 'settled', outcome: completed, reported: false }]);
    expect(jobs.outbox().map((job) => job.jobId)).toEqual([a.job_id]);
    jobs.acknowledge([a.job_id]);
    jobs.flushAcknowledged();
    expect(jobs.outbox()).toEqual([]);
    expect(jobs.counts()).toEqual({ waiting: 1, importing: 0, unreported: 0, settled: 1 });
    expect(jobs.recent(10).map((job) => [job.jobId, job.state, job.xml])).toEqual([
      [b.job_id, 'queued', b.xml],
      [a.job_id, 'settled', a.xml],
    ]);

    // A fresh store over the same database reads the open job from disk.
    expect(new JobStore(db).open().map((job) => [job.jobId, job.state])).toEqual([[b.job_id, 'queued']]);
    expect(jobs.prune(clock.date())).toBe(0);
    expect(jobs.prune(new Date(clock.now() + 1))).toBe(1);
    expect(jobs.get(a.job_id)).toBeUndefined();
    expect(db.prepare('SELECT COUNT(*) AS n FROM job_documents').get()).toEqual({ n: 1 });
  });

  it("keeps pairings: the user's requests, withdrawals, and the relay's list as the truth", () => {
    const pairings = new PairingStore(open());
    const company1 = { companyId: 1, booksCompanyGuid: 'guid-1', booksCompanyName: 'One' };
    const company2 = { companyId: 2, booksCompanyGuid: 'guid-2', booksCompanyName: 'Two' };
    const company3 = { companyId: 3, booksCompanyGuid: 'guid-3', booksCompanyName: 'Three' };
    pairings.request(company1);
    pairings.request(company2);
    pairings.withdraw(2);
    expect(pairings.list()).toEqual([{ ...company1, confirmed: false }]);
    pairings.replaceConfirmed([company1, company3]);
    pairings.request(company2);
    pairings.replaceConfirmed([company3]);
    expect(pairings.list()).toEqual([
      { ...company2, confirmed: false },
      { ...company3, confirmed: true },
    ]);
    pairings.withdraw(3);
    expect(pairings.get(3)).toEqual({ ...company3, confirmed: true });
  });

  it('keeps the enrolment and the books URL across a reopen', () => {
    const dataDir = tempDir();
    const db = open(dataDir);
    const settings = new SettingsStore(db);
    expect(settings.enrolment()).toBeUndefined();
    settings.saveEnrolment(enrolment);
    settings.saveBooksUrl('http://192.168.1.20:9000');
    db.close();
    const reopened = new SettingsStore(open(dataDir));
    expect(reopened.enrolment()).toEqual(enrolment);
    expect(reopened.booksUrl()).toBe('http://192.168.1.20:9000');
  });

  it('keeps sync cursors, the last run, and the objects the relay holds', () => {
    const clock = testClock(T0.getTime());
    const sync = new SyncStateStore(open(), clock.date);
    sync.saveCursor(1, 'vouchers', '100');
    sync.saveCursor(1, 'vouchers', '120');
    sync.saveCursor(1, 'masters', '7');
    expect([sync.cursor(1, 'vouchers'), sync.cursor(1, 'masters'), sync.cursor(2, 'vouchers')]).toEqual(['120', '7', undefined]);
    sync.recordRun(1, { ok: true, summary: '3 vouchers' });
    clock.set(T0.getTime() + 60_000);
    sync.recordRun(1, { ok: false, summary: 'books not running', error: 'connect ECONNREFUSED' });
    expect(sync.run(1)).toEqual({ companyId: 1, lastSyncAt: T0.toISOString(), lastResult: 'books not running', lastError: 'connect ECONNREFUSED', passes: 2 });
    sync.rememberObjects(1, ['c', 'a', 'b'].map((guid) => ({ guid, object: 'voucher' as const, alterId: '1' })));
    sync.rememberObjects(1, [{ guid: 'm', object: 'master', alterId: '4' }]);
    sync.forgetObjects(1, ['b']);
    expect([...sync.knownGuids(1, 'voucher')]).toEqual(['a', 'c']);
    expect(sync.knownCount(1, 'master')).toBe(1);
    sync.clearCompany(1);
    expect([sync.cursor(1, 'vouchers'), sync.knownCount(1, 'voucher'), sync.knownCount(1, 'master')]).toEqual([undefined, 0, 0]);
  });

  it('keeps the newest 2000 log lines, oldest first', () => {
    const log = new LogStore(open(), () => T0);
    for (let n = 1; n <= 2400; n += 1) log.append(n % 2 === 0 ? 'info' : 'warn', `line ${n}`);
    const lines = log.recent(5000);
    expect(lines).toHaveLength(2000);
    expect([lines[0]?.message, lines.at(-1)?.message, lines.at(-1)?.level]).toEqual(['line 401', 'line 2400', 'info']);
    expect(log.recent(2).map((entry) => entry.message)).toEqual(['line 2399', 'line 2400']);
  });

  it("rolls back a store's transaction that throws, and a nested one alone when the outer goes on", () => {
    const db = open();
    const jobs = new JobStore(db);
    const good = voucherJob(company, journalDocument('RB-1'));
    const broken = { ...voucherJob(company, journalDocument('RB-2')), xml: null as unknown as string };
    expect(() => jobs.receive([good, broken])).toThrow(/NOT NULL/);
    expect(jobs.get(good.job_id)).toBeUndefined();
    expect(db.prepare('SELECT COUNT(*) AS n FROM job_documents').get()).toEqual({ n: 0 });

    const settings = new SettingsStore(db);
    const pairings = new PairingStore(db);
    db.transaction(() => {
      settings.saveEnrolment(enrolment);
      expect(() =>
        db.transaction(() => {
          pairings.request({ companyId: 1, booksCompanyGuid: 'guid-1', booksCompanyName: 'One' });
          throw new Error('refused inside');
        }),
      ).toThrow('refused inside');
      pairings.request({ companyId: 2, booksCompanyGuid: 'guid-2', booksCompanyName: 'Two' });
    });
    expect(settings.enrolment()).toEqual(enrolment);
    expect(pairings.list().map((pairing) => pairing.companyId)).toEqual([2]);
  });

  it('refuses a transaction function that returns a promise, and rolls back what it did', () => {
    const db = open();
    const settings = new SettingsStore(db);
    expect(() =>
      db.transaction(async () => {
        settings.saveBooksUrl('http://192.168.1.20:9000');
        await Promise.resolve();
      }),
    ).toThrow(/must be synchronous/);
    expect(settings.booksUrl()).toBeUndefined();
  });

  it('reuses a compiled statement, and hands a second user a fresh one while the first iterates', () => {
    const db = open();
    const sync = new SyncStateStore(db);
    sync.rememberObjects(1, ['a', 'b', 'c'].map((guid) => ({ guid, object: 'voucher' as const, alterId: '1' })));
    const kept = db.prepare(KNOWN_GUIDS_SQL);
    expect(db.prepare(KNOWN_GUIDS_SQL)).toBe(kept);

    // The same query iterated inside its own iteration: each runs to its end, neither restarts the other.
    const pairs: string[] = [];
    for (const outer of sync.knownGuids(1, 'voucher')) {
      for (const inner of sync.knownGuids(1, 'voucher')) pairs.push(outer + inner);
      if (pairs.length > 9) break; // an iteration restarted by the other would never end
    }
    expect(pairs).toEqual(['aa', 'ab', 'ac', 'ba', 'bb', 'bc', 'ca', 'cb', 'cc']);

    const rows = kept.iterate(1, 'voucher');
    expect(rows.next().value).toEqual({ guid: 'a' });
    expect(kept.busy).toBe(true);
    expect(() => kept.all(1, 'voucher')).toThrow(/being iterated/);
    const fresh = db.prepare(KNOWN_GUIDS_SQL);
    expect(fresh).not.toBe(kept);
    expect(fresh.all(1, 'voucher')).toEqual([{ guid: 'a' }, { guid: 'b' }, { guid: 'c' }]);
    expect(rows.next().value).toEqual({ guid: 'b' });
    rows.return?.();
    expect(db.prepare(KNOWN_GUIDS_SQL)).toBe(kept);
    expect(kept.all(1, 'voucher')).toHaveLength(3);
  });

  it('refuses a write while an iteration is open, and runs it once the iteration is left', () => {
    const db = open();
    const sync = new SyncStateStore(db);
    sync.rememberObjects(1, ['a', 'b', 'c'].map((guid) => ({ guid, object: 'voucher' as const, alterId: '1' })));
    const guids = sync.knownGuids(1, 'voucher');
    expect(guids.next().value).toBe('a');
    expect(() => sync.forgetObjects(1, ['a'])).toThrow(/iteration open/);
    expect(() => sync.saveCursor(1, 'vouchers', '5')).toThrow(/iteration open/);
    expect(sync.knownCount(1, 'voucher')).toBe(3);
    guids.return?.(undefined);
    sync.forgetObjects(1, ['a']);
    sync.saveCursor(1, 'vouchers', '5');
    expect([...sync.knownGuids(1, 'voucher')]).toEqual(['b', 'c']);
    expect(sync.cursor(1, 'vouchers')).toBe('5');
  });
});
