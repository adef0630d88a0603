// The job store's open-jobs and outbox indexes are partial: a job is in jobs_open while queued or
// importing and in jobs_outbox while settled and unreported, and the queries that read them use them.
// A data directory from before (whole-table indexes, user_version 2) is upgraded in place.
import { afterEach, describe, expect, it } from 'vitest';
import { JobStore } from '../src/core/state/job-store.js';
import { openLocalDatabase, type LocalDatabase } from '../src/core/state/local-database.js';
import { journalDocument, voucherJob } from './helpers/job-fixtures.js';
import { tempDataDir } from './helpers/test-emulator.js';

const company = { guid: 'c0a80001-0000-4000-8000-000000000002', name: 'Index Traders' };
const opened: LocalDatabase[] = [];

afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

function open(dataDir: string): LocalDatabase {
  const db = openLocalDatabase(dataDir);
  opened.push(db);
  return db;
}

function indexEntries(db: LocalDatabase, index: 'jobs_open' | 'jobs_outbox'): number {
  const { sql: where } = db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(index) as { sql: string };
  const condition = /WHERE (.*)$/s.exec(where)?.[1];
  if (!condition) throw new Error(`${index} is not partial: ${where}`);
  return (db.prepare(`SELECT COUNT(*) AS n FROM jobs INDEXED BY ${index} WHERE ${condition}`).get() as { n: number }).n;
}

function plan(db: LocalDatabase, sql: string): string {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((row) => row.detail).join('; ');
}

/** Three jobs received; the first settled and acknowledged, the second settled only. */
function storeWithSettledJobs(db: LocalDatabase) {
  const jobs = new JobStore(db);
  const received = jobs.receive([0, 1, 2].map((n) => voucherJob(company, journalDocument(`IX-${n}`)))).map(({ job }) => job);
  jobs.markImporting(received.map((job) => job.jobId));
  jobs.settle(received.slice(0, 2).map((job) => ({ job, outcome: { status: 'completed' as const, books_voucher_guid: null, books_master_id: null } })));
  jobs.acknowledge([received[0]!.jobId]);
  jobs.flushAcknowledged();
  return { jobs, received };
}

describe('job store indexes', () => {
  it('hold a job only while it is open, or settled and unreported, and counts read the same', () => {
    const db = open(tempDataDir());
    const { jobs, received } = storeWithSettledJobs(db);
    expect(indexEntries(db, 'jobs_open')).toBe(1);
    expect(indexEntries(db, 'jobs_outbox')).toBe(1);
    expect(jobs.outbox().map((job) => job.jobId)).toEqual([received[1]!.jobId]);
    expect(jobs.counts()).toEqual({ waiting: 0, importing: 1, unreported: 1, settled: 2 });
    expect(plan(db, "SELECT * FROM jobs WHERE state = 'settled' AND reported = 0 ORDER BY seq")).toContain('jobs_outbox');
    expect(plan(db, "SELECT seq FROM jobs WHERE state IN ('queued', 'importing') ORDER BY seq")).toContain('jobs_open');
  });

  it('are rebuilt partial when a data directory from before opens, its jobs intact', () => {
    const dataDir = tempDataDir();
    const before = open(dataDir);
    const { received } = storeWithSettledJobs(before);
    // The layout of user_version 2: whole-table indexes.
    before.exec(`DROP INDEX jobs_open; DROP INDEX jobs_outbox;
      CREATE INDEX jobs_open ON jobs (state, seq); CREATE INDEX jobs_outbox ON jobs (reported, state);`);
    before.pragma('user_version = 2');
    before.close();

    const after = open(dataDir);
    expect(after.pragma('user_version')).toBe(3);
    expect(indexEntries(after, 'jobs_open')).toBe(1);
    expect(indexEntries(after, 'jobs_outbox')).toBe(1);
    const jobs = new JobStore(after);
    expect(jobs.open().map((job) => job.jobId)).toEqual([received[2]!.jobId]);
    expect(jobs.outbox().map((job) => job.jobId)).toEqual([received[1]!.jobId]);
    expect(jobs.counts()).toEqual({ waiting: 0, importing: 1, unreported: 1, settled: 2 });
  });
});
