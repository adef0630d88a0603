// Jobs the relay handed to this connector, kept until their outcome is delivered. Deduplicates on
// job_id; 'importing' is written before the import leaves for the books, so a crash or a cut connection
// afterwards is remembered as "outcome unknown" and checked in the books, never blindly imported again.
// Settled jobs whose outcome the relay has not acknowledged form the outbox.
// A job's import XML lives in job_documents, written once: SQLite rewrites a whole row on every update.
// A job is written 'importing' when it is received — on disk the state means "its import may have left",
// which is true early as well as late — so nothing need be written between one import request's answer
// and the next request: the books wait for no disk. In memory it stays queued until its import leaves.
// One received while the books are unavailable is written back to 'queued' when the runner gives up,
// and so are the unsent ones when the connector stops; one lost to a crash is only looked up in the
// books (REMOTEID) before it goes again, never booked twice.
// The open jobs are also kept in memory once read: this store is the only writer of its tables, so
// every write keeps that copy true, and the runner asks for them before every import request.
import type { AssignedJob, JobResultMessage } from '@ledgerwire/shared';
import type { LocalDatabase } from './local-database.js';

export type JobOutcome = JobResultMessage['outcome'];
export type JobState = 'queued' | 'importing' | 'settled';

export type StoredJob = Readonly<{
  seq: number;
  jobId: string;
  companyId: number;
  booksCompanyGuid: string;
  booksCompanyName: string;
  jobType: 'voucher' | 'master';
  eventType: string;
  remoteId: string;
  booksVoucherGuid: string | null;
  attempt: number;
  state: JobState;
  outcome: JobOutcome | null;
  reported: boolean;
  receivedAt: string;
  updatedAt: string;
}>;

/** A job still to run, with the import envelope the relay rendered for it. */
export type OpenJob = StoredJob & Readonly<{ xml: string }>;

/** A job as the recent list reads it: with its import XML, which says which voucher or master it is. */
export type RecentJob = StoredJob & Readonly<{ xml: string | null }>;

type Row = {
  seq: number; job_id: string; company_id: number; books_company_guid: string; books_company_name: string;
  job_type: string; event_type: string; remote_id: string; books_voucher_guid: string | null;
  attempt: number; state: string; outcome: string | null; reported: number; received_at: string; updated_at: string;
};

function toJob(row: Row): StoredJob {
  return {
    seq: row.seq,
    jobId: row.job_id,
    companyId: row.company_id,
    booksCompanyGuid: row.books_company_guid,
    booksCompanyName: row.books_company_name,
    jobType: row.job_type === 'master' ? 'master' : 'voucher',
    eventType: row.event_type,
    remoteId: row.remote_id,
    booksVoucherGuid: row.books_voucher_guid,
    attempt: row.attempt,
    state: row.state as JobState,
    outcome: row.outcome === null ? null : (JSON.parse(row.outcome) as JobOutcome),
    reported: row.reported === 1,
    receivedAt: row.received_at,
    updatedAt: row.updated_at,
  };
}

function newJob(job: AssignedJob, seq: number, now: string): StoredJob {
  return {
    seq,
    jobId: job.job_id,
    companyId: job.company_id,
    booksCompanyGuid: job.books_company_guid,
    booksCompanyName: job.books_company_name,
    jobType: job.job_type,
    eventType: job.event_type,
    remoteId: job.remote_id,
    booksVoucherGuid: job.books_voucher_guid,
    attempt: job.attempt,
    state: 'queued',
    outcome: null,
    reported: false,
    receivedAt: now,
    updatedAt: now,
  };
}

export type JobCounts = Readonly<{ waiting: number; importing: number; unreported: number; settled: number }>;

/** job_id IN (…) for a list passed as one JSON parameter. */
const IN_LIST = 'job_id IN (SELECT value FROM json_each(?))';

/** At the latest this long after the relay acknowledged an outcome, it is written down as reported. */
const ACKNOWLEDGED_WRITE_DELAY_MS = 50;

export class JobStore {
  /**
   * Open jobs (queued or importing) by job_id, in seq order (a new job has the highest seq, and a Map
   * keeps its keys' first order); undefined until first read from disk.
   */
  private openJobs: Map<string, OpenJob> | undefined;
  /** Open jobs queued in memory whose row says 'importing' (written so when received), by job_id. */
  private readonly markedEarly = new Set<string>();
  /** Outcomes the relay acknowledged, not written as reported yet (see acknowledge). */
  private readonly acknowledged = new Set<string>();
  private acknowledgedTimer: NodeJS.Timeout | undefined;
  /** Told after acknowledgements were written on their own (the status' unreported count changed). */
  onAcknowledgedWritten: () => void = () => undefined;

  constructor(private readonly db: LocalDatabase, private readonly clock: () => Date = () => new Date()) {}

  get(jobId: string): StoredJob | undefined {
    const row = this.db.prepare('SELECT * FROM jobs WHERE job_id = ?').get(jobId) as Row | undefined;
    return row ? this.asRunnerSeesIt(toJob(row)) : undefined;
  }

  /** A row with the state the runner works with: one written 'importing' early is still queued. */
  private asRunnerSeesIt(job: StoredJob): StoredJob {
    return this.markedEarly.has(job.jobId) ? { ...job, state: 'queued' } : job;
  }

  /**
   * Stores delivered jobs (one transaction for all); a redelivery of a known job only raises its
   * attempt. Returns each stored job and whether it was new, in the order given.
   */
  receive(jobs: readonly AssignedJob[]): { job: StoredJob; isNew: boolean }[] {
    const now = this.clock().toISOString();
    const insert = this.db.prepare(
      `INSERT INTO jobs (job_id, company_id, books_company_guid, books_company_name, job_type, event_type, remote_id,
         books_voucher_guid, attempt, state, received_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'importing', ?, ?)
       ON CONFLICT (job_id) DO NOTHING`,
    );
    const document = this.db.prepare('INSERT INTO job_documents (seq, xml) VALUES (?, ?)');
    const raise = this.db.prepare('UPDATE jobs SET attempt = ?, updated_at = ? WHERE job_id = ? AND attempt < ?');
    return this.db.transaction(() => {
      this.writeAcknowledged();
      return jobs.map((job) => {
        const inserted = insert.run(job.job_id, job.company_id, job.books_company_guid, job.books_company_name, job.job_type, job.event_type,
          job.remote_id, job.books_voucher_guid, job.attempt, now, now);
        if (inserted.changes === 1) {
          const seq = Number(inserted.lastInsertRowid);
          document.run(seq, job.xml);
          this.markedEarly.add(job.job_id);
          const stored = newJob(job, seq, now);
          this.openJobs?.set(job.job_id, { ...stored, xml: job.xml });
          return { job: stored, isNew: true };
        }
        raise.run(job.attempt, now, job.job_id, job.attempt);
        const stored = this.get(job.job_id) as StoredJob;
        this.refresh([stored]);
        return { job: stored, isNew: false };
      });
    });
  }

  /** Jobs still to run (queued, or importing with an unknown outcome), oldest first, with their XML. */
  open(limit = 1000): OpenJob[] {
    this.openJobs ??= this.readOpenJobs();
    const jobs: OpenJob[] = [];
    for (const job of this.openJobs.values()) {
      if (jobs.length >= limit) break;
      jobs.push(job);
    }
    return jobs;
  }

  /** Before the import leaves. Only jobs whose row does not say 'importing' yet are written. */
  markImporting(jobIds: readonly string[]): void {
    const unmarked = jobIds.filter((id) => !this.markedEarly.delete(id));
    if (unmarked.length > 0) this.writeState(unmarked, 'importing', "state != 'settled'");
    this.moveOpenJobs(jobIds, 'importing');
  }

  /** Back to queued: nothing was sent (books not running, company not open). */
  markQueued(jobIds: readonly string[]): void {
    for (const id of jobIds) this.markedEarly.delete(id);
    this.writeState(jobIds, 'queued', "state = 'importing'");
    this.moveOpenJobs(jobIds, 'queued');
  }

  /**
   * Writes back to 'queued' the jobs written 'importing' when received that never left (the books are
   * unavailable, or the connector stops), so they are not looked up one by one later.
   */
  unmarkUnsent(): void {
    if (this.markedEarly.size === 0 || !this.db.isOpen) return;
    this.writeState([...this.markedEarly], 'queued', "state = 'importing'");
    this.markedEarly.clear();
  }

  /** Stores the outcomes of one import request together (one transaction); returns the settled jobs. */
  settle(outcomes: readonly { job: StoredJob; outcome: JobOutcome }[]): StoredJob[] {
    const now = this.clock().toISOString();
    const stmt = this.db.prepare("UPDATE jobs SET state = 'settled', outcome = ?, reported = 0, updated_at = ? WHERE job_id = ? AND state != 'settled'");
    return this.db.transaction(() => {
      this.writeAcknowledged();
      return outcomes.flatMap(({ job, outcome }) => {
        this.openJobs?.delete(job.jobId);
        this.markedEarly.delete(job.jobId);
        if (stmt.run(JSON.stringify(outcome), now, job.jobId).changes === 1) return [{ ...toStored(job), state: 'settled' as const, outcome, reported: false, updatedAt: now }];
        const stored = this.get(job.jobId);
        return stored ? [stored] : [];
      });
    });
  }

  private markReported(jobIds: Iterable<string>): void {
    this.db.prepare(`UPDATE jobs SET reported = 1, updated_at = ? WHERE ${IN_LIST}`).run(this.clock().toISOString(), JSON.stringify([...jobIds]));
  }

  /**
   * The relay acknowledged these outcomes. They are written as reported with this store's next
   * transaction (receiving jobs, settling a request), or on their own after ACKNOWLEDGED_WRITE_DELAY_MS: one commit
   * fewer per request. One lost to a crash meanwhile is only reported again, answered as a duplicate.
   */
  acknowledge(jobIds: readonly string[]): void {
    for (const id of jobIds) this.acknowledged.add(id);
    if (this.acknowledged.size === 0 || this.acknowledgedTimer) return;
    this.acknowledgedTimer = setTimeout(() => {
      this.acknowledgedTimer = undefined;
      if (!this.db.isOpen || this.acknowledged.size === 0) return;
      this.writeAcknowledged();
      this.onAcknowledgedWritten();
    }, ACKNOWLEDGED_WRITE_DELAY_MS);
    this.acknowledgedTimer.unref();
  }

  /** Writes the pending acknowledgements now (the connector is stopping). */
  flushAcknowledged(): void {
    if (this.db.isOpen) this.writeAcknowledged();
  }

  private writeAcknowledged(): void {
    clearTimeout(this.acknowledgedTimer);
    this.acknowledgedTimer = undefined;
    if (this.acknowledged.size === 0) return;
    this.markReported(this.acknowledged);
    this.acknowledged.clear();
  }

  /** Outcomes known here but not yet acknowledged by the relay. */
  outbox(): StoredJob[] {
    return (this.db.prepare("SELECT * FROM jobs WHERE state = 'settled' AND reported = 0 ORDER BY seq").all() as Row[]).map(toJob);
  }

  /** Forgets jobs settled and acknowledged before `before`; open and unreported ones always stay. */
  prune(before: Date): number {
    const done = "state = 'settled' AND reported = 1 AND updated_at < ?";
    const cutoff = before.toISOString();
    return this.db.transaction(() => {
      this.db.prepare(`DELETE FROM job_documents WHERE seq IN (SELECT seq FROM jobs WHERE ${done})`).run(cutoff);
      return this.db.prepare(`DELETE FROM jobs WHERE ${done}`).run(cutoff).changes;
    });
  }

  /**
   * The newest jobs, newest first, with their import XML (read here, for the list, never on the import
   * path); an open one as the runner sees it (see markedEarly).
   */
  recent(limit: number): RecentJob[] {
    const rows = this.db
      .prepare('SELECT jobs.*, d.xml FROM jobs LEFT JOIN job_documents d ON d.seq = jobs.seq ORDER BY jobs.seq DESC LIMIT ?')
      .all(limit) as (Row & { xml: string | null })[];
    return rows.map((row) => ({ ...this.asRunnerSeesIt(toJob(row)), xml: row.xml }));
  }

  /**
   * The open jobs on disk. The states are named so the jobs_open index finds them without reading the
   * settled jobs kept for days.
   */
  private readOpenJobs(): Map<string, OpenJob> {
    const rows = this.db
      .prepare(
        `SELECT jobs.*, d.xml FROM jobs JOIN job_documents d ON d.seq = jobs.seq
         WHERE jobs.state IN ('queued', 'importing') ORDER BY jobs.seq`,
      )
      .all() as (Row & { xml: string })[];
    return new Map(rows.map((row) => [row.job_id, { ...this.asRunnerSeesIt(toJob(row)), xml: row.xml }]));
  }

  private writeState(jobIds: readonly string[], state: 'queued' | 'importing', from: string): void {
    const now = this.clock().toISOString();
    this.db.prepare(`UPDATE jobs SET state = ?, updated_at = ? WHERE ${IN_LIST} AND ${from}`).run(state, now, JSON.stringify(jobIds));
  }

  /** The in-memory open jobs' state (their rows are written by the caller). */
  private moveOpenJobs(jobIds: readonly string[], state: 'queued' | 'importing'): void {
    if (!this.openJobs) return;
    for (const jobId of jobIds) {
      const job = this.openJobs.get(jobId);
      if (job && job.state !== state) this.openJobs.set(jobId, { ...job, state });
    }
  }

  /** Takes changed rows (a raised attempt) into the in-memory open jobs. */
  private refresh(jobs: readonly StoredJob[]): void {
    for (const job of jobs) {
      const cached = this.openJobs?.get(job.jobId);
      if (cached) this.openJobs?.set(job.jobId, { ...job, xml: cached.xml });
    }
  }

  /**
   * Open jobs counted in memory (a row may say 'importing' early), unreported ones from the jobs_outbox
   * index and settled ones as every job but the open (the rows' count, which SQLite reads from its
   * smallest index): status asks often.
   */
  counts(): JobCounts {
    this.openJobs ??= this.readOpenJobs();
    let waiting = 0;
    for (const job of this.openJobs.values()) if (job.state === 'queued') waiting += 1;
    const { unreported, all } = this.db
      .prepare(
        `SELECT (SELECT COUNT(*) FROM jobs WHERE state = 'settled' AND reported = 0) AS unreported,
                (SELECT COUNT(*) FROM jobs) AS "all"`,
      )
      .get() as { unreported: number; all: number };
    return { waiting, importing: this.openJobs.size - waiting, unreported, settled: all - this.openJobs.size };
  }
}

/** The stored part of a job (an OpenJob without its XML). */
function toStored(job: StoredJob | OpenJob): StoredJob {
  if (!('xml' in job)) return job;
  const { xml: _xml, ...stored } = job;
  return stored;
}
