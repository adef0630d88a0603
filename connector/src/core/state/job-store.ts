// Jobs the relay handed to this connector, kept until their outcome is delivered. Deduplicates on
// job_id; 'importing' is written (and synced to disk) before the import leaves for the books, so a crash
// or a cut connection afterwards is remembered as "outcome unknown" and checked in the books, never
// blindly imported again. Settled jobs whose outcome the relay has not acknowledged form the outbox.
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
  xml: string;
  remoteId: string;
  booksVoucherGuid: string | null;
  attempt: number;
  state: JobState;
  outcome: JobOutcome | null;
  reported: boolean;
  receivedAt: string;
  updatedAt: string;
}>;

type Row = {
  seq: number; job_id: string; company_id: number; books_company_guid: string; books_company_name: string;
  job_type: string; event_type: string; xml: string; remote_id: string; books_voucher_guid: string | null;
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
    xml: row.xml,
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

export type JobCounts = Readonly<{ waiting: number; importing: number; unreported: number; settled: number }>;

export class JobStore {
  constructor(private readonly db: LocalDatabase, private readonly clock: () => Date = () => new Date()) {}

  get(jobId: string): StoredJob | undefined {
    const row = this.db.prepare('SELECT * FROM jobs WHERE job_id = ?').get(jobId) as Row | undefined;
    return row ? toJob(row) : undefined;
  }

  /** Stores a delivered job; a redelivery of a known job only raises its attempt. Returns the stored job. */
  receive(job: AssignedJob): { job: StoredJob; isNew: boolean } {
    const now = this.clock().toISOString();
    return this.db.transaction(() => {
      const existing = this.get(job.job_id);
      if (existing) {
        if (job.attempt > existing.attempt) {
          this.db.prepare('UPDATE jobs SET attempt = ?, updated_at = ? WHERE job_id = ?').run(job.attempt, now, job.job_id);
        }
        return { job: this.get(job.job_id) as StoredJob, isNew: false };
      }
      this.db
        .prepare(
          `INSERT INTO jobs (job_id, company_id, books_company_guid, books_company_name, job_type, event_type, xml, remote_id,
             books_voucher_guid, attempt, state, received_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?)`,
        )
        .run(job.job_id, job.company_id, job.books_company_guid, job.books_company_name, job.job_type, job.event_type, job.xml,
          job.remote_id, job.books_voucher_guid, job.attempt, now, now);
      return { job: this.get(job.job_id) as StoredJob, isNew: true };
    })();
  }

  /** Jobs still to run (queued, or importing with an unknown outcome), oldest first. */
  open(limit = 1000): StoredJob[] {
    return (this.db.prepare("SELECT * FROM jobs WHERE state != 'settled' ORDER BY seq LIMIT ?").all(limit) as Row[]).map(toJob);
  }

  markImporting(jobIds: readonly string[]): void {
    const now = this.clock().toISOString();
    const stmt = this.db.prepare("UPDATE jobs SET state = 'importing', updated_at = ? WHERE job_id = ? AND state != 'settled'");
    this.db.transaction(() => jobIds.forEach((id) => stmt.run(now, id)))();
  }

  /** Back to queued: nothing was sent (books not running, company not open). */
  markQueued(jobIds: readonly string[]): void {
    const now = this.clock().toISOString();
    const stmt = this.db.prepare("UPDATE jobs SET state = 'queued', updated_at = ? WHERE job_id = ? AND state = 'importing'");
    this.db.transaction(() => jobIds.forEach((id) => stmt.run(now, id)))();
  }

  settle(jobId: string, outcome: JobOutcome): void {
    this.db
      .prepare("UPDATE jobs SET state = 'settled', outcome = ?, reported = 0, updated_at = ? WHERE job_id = ? AND state != 'settled'")
      .run(JSON.stringify(outcome), this.clock().toISOString(), jobId);
  }

  markReported(jobId: string): void {
    this.db.prepare('UPDATE jobs SET reported = 1, updated_at = ? WHERE job_id = ?').run(this.clock().toISOString(), jobId);
  }

  /** Outcomes known here but not yet acknowledged by the relay. */
  outbox(): StoredJob[] {
    return (this.db.prepare("SELECT * FROM jobs WHERE state = 'settled' AND reported = 0 ORDER BY seq").all() as Row[]).map(toJob);
  }

  /** Forgets jobs settled and acknowledged before `before`; open and unreported ones always stay. */
  prune(before: Date): number {
    return this.db.prepare("DELETE FROM jobs WHERE state = 'settled' AND reported = 1 AND updated_at < ?").run(before.toISOString()).changes;
  }

  recent(limit: number): StoredJob[] {
    return (this.db.prepare('SELECT * FROM jobs ORDER BY seq DESC LIMIT ?').all(limit) as Row[]).map(toJob);
  }

  counts(): JobCounts {
    const row = this.db
      .prepare(
        `SELECT SUM(state = 'queued') AS waiting, SUM(state = 'importing') AS importing,
                SUM(state = 'settled' AND reported = 0) AS unreported, SUM(state = 'settled') AS settled FROM jobs`,
      )
      .get() as Record<string, number | null>;
    return { waiting: row.waiting ?? 0, importing: row.importing ?? 0, unreported: row.unreported ?? 0, settled: row.settled ?? 0 };
  }
}
