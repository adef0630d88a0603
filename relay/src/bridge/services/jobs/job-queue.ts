// The bridge's job queue: a transaction row is the queue entry. The connector gateway claims jobs
// for a connector, reports each outcome, and hands jobs back when the connector drops; leases that
// run out are reaped the same way. The gateway sees it through the JobQueue shape in gateway/gateway-ports.ts.
import type { Kysely } from 'kysely';
import type { DialectCapabilities } from '../../../db/capabilities.js';
import type { Database } from '../../../db/schema.js';
import { systemClock, type Clock } from '../../store/bridge-ids.js';
import { claimJobs, type ClaimedRow } from '../../store/jobs/claim-jobs.js';
import { AppError } from '../../../errors/catalogue.js';
import { findEarlierJob } from '../../store/jobs/find-earlier-job.js';
import { insertJobs, type InsertedJob, type NewJob } from '../../store/jobs/enqueue-job.js';
import { GroupCommit } from './job-group-commit.js';
import type { TransactionRow } from '../../store/jobs/transaction-record.js';
import { renderJobXml } from './render-job-xml.js';
import { recordOutcomes, type JobOutcomeReport } from '../../store/jobs/record-outcomes.js';
import { requeueJobs } from '../../store/jobs/requeue-jobs.js';
import { findJobRenderSource } from '../../store/jobs/find-job-render-source.js';
import { renewJobLeases } from '../../store/jobs/renew-job-leases.js';
import { saveRenderedJobXml } from '../../store/jobs/save-rendered-job-xml.js';

export const DEFAULT_MAX_RETRIES = 5;

export type ClaimedJob = Readonly<{
  job_id: string;
  company_id: number;
  books_company_guid: string;
  books_company_name: string;
  job_type: 'voucher' | 'master';
  event_type: string;
  /** The rendered import envelope. */
  xml: string;
  /** What the books use to recognise a retry of the same write. */
  remote_id: string;
  books_voucher_guid: string | null;
  retry_count: number;
  lease_expires_at: string;
}>;

export type JobResult = Readonly<{ books_voucher_guid?: string | null; books_master_id?: string | null; books_alter_id?: string | null }>;

export class JobQueue {
  private readonly db: Kysely<Database>;
  private readonly capabilities: DialectCapabilities;
  private readonly clock: Clock;
  readonly maxRetries: number;
  private readonly listeners: ((companyId: number) => void)[] = [];
  private readonly webhooksQueued: () => void;
  /** Concurrent writes share one transaction (see job-group-commit.ts). */
  private readonly inserts: GroupCommit<NewJob, InsertedJob | undefined>;
  /** Companies with jobs queued in the current run of microtasks, not yet announced. */
  private readonly queuedCompanies = new Set<number>();

  constructor(deps: {
    db: Kysely<Database>;
    capabilities: DialectCapabilities;
    clock?: Clock;
    maxRetries?: number;
    /** Called after outcome webhooks were committed with their outcomes, to send them at once. */
    webhooksQueued?: () => void;
  }) {
    this.db = deps.db;
    this.capabilities = deps.capabilities;
    this.clock = deps.clock ?? systemClock;
    this.maxRetries = deps.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.webhooksQueued = deps.webhooksQueued ?? (() => undefined);
    this.inserts = new GroupCommit((jobs) => insertJobs(this.db, jobs, { writableCtes: this.capabilities.writableCtes }));
  }

  /** Adds a job (or returns the one the caller's own id already made) and wakes the gateway for a new one. */
  async enqueue(job: Omit<NewJob, 'max_retries' | 'status' | 'retry_count'>): Promise<{ row: InsertedJob; created: boolean }> {
    const newJob: NewJob = { ...job, status: 'queued', retry_count: 0, max_retries: this.maxRetries };
    const row = await this.inserts.submit(newJob);
    if (!row) return { row: await earlierJob(this.db, newJob), created: false };
    this.announceQueued(row.company_id);
    return { row, created: true };
  }

  /**
   * Wakes the gateway for a company once for all the jobs of one batch: their writes resume in the
   * same run of microtasks, and each wake costs a NOTIFY on PostgreSQL. A microtask, not a turn:
   * the wake is not delayed.
   */
  private announceQueued(companyId: number): void {
    if (this.queuedCompanies.size === 0) {
      queueMicrotask(() => {
        const companyIds = [...this.queuedCompanies];
        this.queuedCompanies.clear();
        this.notify(companyIds);
      });
    }
    this.queuedCompanies.add(companyId);
  }

  /**
   * See claim-jobs.ts: with `sessionId`, that session may be handed a company's next jobs while it runs
   * earlier ones; with `companyOpen`, a company not open in the books is passed over.
   */
  async claimForConnector(
    connectorId: string,
    options: { limit: number; leaseMs: number; sessionId?: string; companyOpen?: (booksCompanyGuid: string) => boolean },
  ): Promise<ClaimedJob[]> {
    const now = this.clock();
    const leaseExpiresAt = new Date(now.getTime() + options.leaseMs).toISOString();
    const claimed = await claimJobs(this.db, this.capabilities, connectorId, {
      limit: Math.max(1, options.limit),
      leaseExpiresAt,
      now: now.toISOString(),
      sessionId: options.sessionId,
      companyOpen: options.companyOpen,
    });
    const jobs: ClaimedJob[] = [];
    for (const { row, company } of claimed) {
      jobs.push({
        job_id: row.job_id,
        company_id: row.company_id,
        books_company_guid: company.books_company_guid,
        books_company_name: company.books_company_name,
        job_type: row.job_type,
        event_type: row.event_type,
        xml: await this.xmlFor(row, company.books_company_name),
        remote_id: row.job_id,
        books_voucher_guid: row.target_voucher_guid,
        retry_count: row.retry_count,
        lease_expires_at: leaseExpiresAt,
      });
    }
    return jobs;
  }

  /**
   * Records a run of outcomes in one transaction, with their transaction.completed / transaction.failed
   * webhooks; per report, whether it settled the job (false: a repeat).
   */
  async recordOutcomes(connectorId: string, reports: readonly JobOutcomeReport[]): Promise<boolean[]> {
    const { recorded, webhookDeliveries } = await recordOutcomes(this.db, connectorId, reports, this.clock().toISOString());
    if (webhookDeliveries > 0) this.wakeWebhooks();
    return recorded;
  }

  /** Idempotent: a repeat for a job already completed or failed is ignored (returns false). */
  async complete(jobId: string, connectorId: string, result: JobResult): Promise<boolean> {
    const [recorded] = await this.recordOutcomes(connectorId, [{ job_id: jobId, status: 'completed', ...result }]);
    return recorded === true;
  }

  async fail(jobId: string, connectorId: string, error: { error_code: string; error_label: string; error_message: string }): Promise<boolean> {
    const [recorded] = await this.recordOutcomes(connectorId, [{ job_id: jobId, status: 'failed', ...error }]);
    return recorded === true;
  }

  /**
   * Connector dropped: its processing jobs → queued with retry_count + 1; past max_retries → failed
   * CONNECTOR_OFFLINE. With `countRetry: false` (this relay is shutting down) they go back as they were.
   */
  async requeueConnectorJobs(connectorId: string, options: { countRetry: boolean } = { countRetry: true }): Promise<number> {
    const result = await requeueJobs(this.db, { connectorId }, this.clock().toISOString(), options);
    this.notify(result.companyIds);
    if (result.webhookDeliveries > 0) this.wakeWebhooks();
    return result.requeued + result.failed;
  }

  /**
   * Extends the leases of jobs a live session holds (the connector confirmed it stored them): a job
   * waiting behind stalled books is not handed back and costs no retry while its connector is there.
   * Returns the jobs renewed (still processing under this session).
   */
  async renewLeases(connectorId: string, sessionId: string, jobIds: readonly string[], leaseMs: number): Promise<{ renewed: string[]; leaseExpiresAt: string }> {
    const now = this.clock();
    const leaseExpiresAt = new Date(now.getTime() + leaseMs).toISOString();
    if (jobIds.length === 0) return { renewed: [], leaseExpiresAt };
    const renewed = await renewJobLeases(this.db, { connectorId, sessionId, jobIds }, leaseExpiresAt, now.toISOString());
    return { renewed, leaseExpiresAt };
  }

  /** Same for leases that ran out (any connector). */
  async expireLeases(): Promise<number> {
    const now = this.clock().toISOString();
    const result = await requeueJobs(this.db, { leaseExpiredBefore: now }, now);
    this.notify(result.companyIds);
    if (result.webhookDeliveries > 0) this.wakeWebhooks();
    return result.requeued + result.failed;
  }

  onJobQueued(listener: (companyId: number) => void): void {
    this.listeners.push(listener);
  }

  private wakeWebhooks(): void {
    try {
      this.webhooksQueued();
    } catch {
      // The events are committed; the delivery worker's next pass sends them anyway.
    }
  }

  private notify(companyIds: readonly number[]): void {
    for (const companyId of companyIds) {
      for (const listener of this.listeners) {
        try {
          listener(companyId);
        } catch {
          // A listener's fault must not fail the write that queued the job; the gateway's claim loop catches up.
        }
      }
    }
  }

  private async xmlFor(row: ClaimedRow['row'], booksCompanyName: string): Promise<string> {
    if (row.xml_company_name === booksCompanyName) return row.xml;
    // The company was paired to a books company of another name since the write was accepted.
    const source = await findJobRenderSource(this.db, row.id);
    const xml = renderJobXml(source, booksCompanyName);
    await saveRenderedJobXml(this.db, row.id, xml, booksCompanyName);
    return xml;
  }
}

/**
 * The job an earlier write with the same (company, transaction_id) made, for a job that was not
 * inserted: replayed when the bodies match, 409 when they differ.
 */
async function earlierJob(db: Kysely<Database>, job: NewJob): Promise<TransactionRow> {
  const { fingerprint, ...existing } = await findEarlierJob(db, job.company_id, job.client_transaction_id ?? '');
  // A job accepted before fingerprints were kept (0260) has none: it replays, as it always did.
  if (fingerprint !== null && job.request_fingerprint != null && fingerprint !== job.request_fingerprint) {
    throw new AppError('idempotency_conflict', {
      message:
        `transaction_id "${existing.client_transaction_id ?? ''}" was already used in this company for job ${existing.job_id} with a different body; ` +
        'a repeat must send the same body (it then replays the first acceptance), a new write needs a new transaction_id',
      details: [{ field: 'transaction_id', message: `already used for job ${existing.job_id} with a different body` }],
    });
  }
  return existing;
}
