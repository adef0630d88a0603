// Runs the jobs the relay handed over against the books, one request at a time, and settles each with
// an outcome the service reports. Never books a voucher twice:
//  - every voucher import carries the job's REMOTEID, which the books treat as "the same voucher": sent
//    again, it alters that voucher (CREATED=0 ALTERED=1) instead of booking a second one;
//  - a job is marked 'importing' on disk before its import leaves; if the answer never comes (crash,
//    cut connection, timeout) it stays 'importing' = outcome unknown, and is sent again only alone, where
//    the REMOTEID upsert is the check: ALTERED=1 says the first import went in, CREATED=1 that it did not;
//  - a job the relay delivers again (attempt > 1) is treated the same way; one already settled here is
//    not run again at all, only its outcome is reported again;
//  - a deletion sent again that way and answered "Voucher (Item) does not exist" had gone in the first time.
// A voucher whose type the books have as another kind than its write's (a Payment type on a receipt) is
// failed before it is sent (VOUCHER_TYPE_MISMATCH): the books would book it as that kind. The types are
// those the last sync pass read (no request of its own; the relay refuses such a write up front when
// it has pulled the types).
// A company the books say is not open has its jobs held (nothing was imported) until presence sees it
// open; the other companies' jobs go on meanwhile.
// Consecutive jobs of one company go in one request. When the answer cannot be split back per job (any
// failure; for vouchers, any alteration), each job is sent again alone to learn its own GUID or error.
// Between two requests the books wait only for the answer's verdict (the next request's jobs were written
// 'importing' when received, see JobStore): the last request's outcomes are written and reported once
// the next request is on its way, and the request after it is worked out then too (which jobs, their
// voucher types checked, their joined envelope encoded as the books take it), while the books import;
// when the answer is the plain success it is sent as prepared unless a job of it changed meanwhile.
// Preparing writes nothing: marks and outcomes go to disk exactly when they did before.
import { booksGuidFor, isVoucherKind, jobErrorLabel, masterIdInBooksGuid, voucherKindWords, writeTakesKind } from '@ledgerwire/shared';
import type { JobStore, OpenJob, StoredJob, JobOutcome } from '../state/job-store.js';
import { encodeBooksRequest, type EncodedBooksRequest } from '../books/books-client.js';
import { BooksRequestError } from '../books/books-errors.js';
import { findOpenCompany, type BooksCompany } from '../presence/books-company.js';
import type { Logger } from '../support/logger.js';
import { errorText } from '../support/logger.js';
import type { BooksJobAccess, ImportVerdict, JobFailure } from './books-job-access.js';
import { canJoin, envelopeShape, joinEnvelopes, type EnvelopeShape } from './import-batching.js';

export type JobRunnerOptions = Readonly<{
  jobs: JobStore;
  books: BooksJobAccess;
  log: Logger;
  batchSize: number;
  /** Called with a request's settled jobs once they are stored and the next request has left (the service reports them). */
  onSettled: (jobs: readonly StoredJob[]) => void;
  /** Called when the runner stops for want of the books (not running / not answering). */
  onBooksUnavailable?: (reason: string) => void;
}>;

/** Jobs with the outcome an import request gave them. */
type Settlement = readonly (readonly [StoredJob, JobOutcome])[];

/** Why a pass stopped early: the runner waits for a wake-up (books back, new job, timer). */
type PassEnd = 'done' | 'books_unavailable';

/** One import request worked out: its jobs, in order, and what goes to the books, encoded as they take it. */
type ImportRequest = Readonly<{ group: readonly OpenJob[]; shapes: readonly (EnvelopeShape | undefined)[]; body: EncodedBooksRequest; objects: number }>;

export class JobRunner {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private waitingForBooks: string | null = null;
  /** Outcomes of the last request, not written yet (see settleLater). */
  private unwritten: Settlement = [];
  /** Each open job's envelope, worked out once (the same jobs are looked at before every request). */
  private readonly shapes = new Map<string, EnvelopeShape | undefined>();
  /** Books companies the books said are not open (GUID → name): their jobs wait, the others' go on. */
  private readonly closedCompanies = new Map<string, string>();
  /** The next request, worked out while the books import the current one (see prepareNext). */
  private prepared: ImportRequest | undefined;

  constructor(private readonly options: JobRunnerOptions) {}

  /** Why jobs are waiting, in plain words, or null when they are not. */
  get waitingReason(): string | null {
    return this.waitingForBooks;
  }

  /** Runs a pass now, or right after the current one. Resolves when the runner is idle. */
  wake(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        const end = await this.pass().catch((error: unknown) => {
          this.options.log.error(`job runner pass failed: ${errorText(error)}`);
          return 'books_unavailable' as const;
        });
        if (end === 'books_unavailable') break;
      } while (this.again && !this.stopped);
    })().finally(() => (this.running = undefined));
    return this.running;
  }

  /** Waits for the current pass; no new pass starts afterwards. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async pass(): Promise<PassEnd> {
    try {
      for (;;) {
        if (this.stopped) return 'done';
        const group = this.takePrepared() ?? this.nextGroup();
        if (!group) {
          this.waitingForBooks = null;
          return 'done';
        }
        const end = await this.runGroup(group);
        if (end === 'books_unavailable') return end;
        this.waitingForBooks = null;
      }
    } finally {
      this.settleLater()();
    }
  }

  /** The companies open in the books now (a presence probe): jobs held for one of them may run again. */
  companiesOpen(open: readonly Pick<BooksCompany, 'guid' | 'name'>[]): void {
    for (const [guid, name] of this.closedCompanies) if (findOpenCompany(open, guid, name)) this.closedCompanies.delete(guid);
  }

  /** Works out the envelopes of jobs just received, while the books are busy with another request. */
  prime(jobs: readonly { job_id: string; xml: string }[]): void {
    for (const job of jobs) if (!this.shapes.has(job.job_id)) this.shapes.set(job.job_id, envelopeShape(job.xml));
  }

  /** The next request's jobs: the oldest open job, and those after it that can share its request. */
  private nextGroup(): OpenJob[] | undefined {
    const open = this.openJobs(this.unwritten.map(([job]) => job.jobId));
    const head = open[0];
    if (!head) return undefined;
    return needsCheck(head) ? [head] : this.takeGroup(open);
  }

  /** The open jobs the next request may take, oldest first, but for those in `leaving`. */
  private openJobs(leaving: readonly string[]): OpenJob[] {
    const left = new Set(leaving);
    // With a company closed, its jobs are passed over: look further than one request's worth.
    const limit = this.closedCompanies.size > 0 ? undefined : this.options.batchSize + left.size;
    return this.options.jobs.open(limit).filter((job) => !left.has(job.jobId) && !this.closedCompanies.has(job.booksCompanyGuid));
  }

  /**
   * While `current` is in the books: the request that follows it if it succeeds — the open jobs but
   * its own, taken as nextGroup would then, its voucher types checked (refuseMisfitTypes) against the
   * types known now. Nothing is written; a job that needs its earlier import looked up, or a group with a
   * misfit to refuse, is not prepared for (it goes the usual way).
   */
  private prepareNext(current: readonly OpenJob[]): void {
    this.prepared = undefined;
    if (this.stopped || this.closedCompanies.size > 0) return;
    try {
      const open = this.openJobs(current.map((job) => job.jobId));
      const head = open[0];
      if (!head || needsCheck(head)) return;
      const group = this.takeGroup(open);
      if (group.some((job) => this.typeMisfit(job) !== undefined)) return;
      this.prepared = this.requestFor(group);
    } catch (error) {
      // Only a head start: the next request is worked out after the answer instead.
      this.options.log.error(`preparing the next import request failed: ${errorText(error)}`);
    }
  }

  /**
   * The prepared request's jobs, when they are still the ones nextGroup would take: the same jobs at
   * the head of the open ones, none changed since (the store replaces a job's entry whenever its state
   * or attempt changes), and no job since arrived that could have made a short request longer.
   */
  private takePrepared(): OpenJob[] | undefined {
    const prepared = this.prepared;
    this.prepared = undefined;
    if (!prepared || this.closedCompanies.size > 0) return undefined;
    const open = this.openJobs(this.unwritten.map(([job]) => job.jobId));
    if (prepared.group.some((job, index) => open[index] !== job)) return undefined;
    if (prepared.group.length < this.options.batchSize && open.length > prepared.group.length) return undefined;
    this.prepared = prepared; // importGroup sends it as it is (see requestOf)
    return [...prepared.group];
  }

  /** The head job and the consecutive jobs after it that can share its request. */
  private takeGroup(open: readonly OpenJob[]): OpenJob[] {
    const head = open[0] as OpenJob;
    const headShape = this.shapeOf(head);
    if (!headShape) return [head];
    const group = [head];
    for (const job of open.slice(1)) {
      if (group.length >= this.options.batchSize || needsCheck(job) || job.booksCompanyGuid !== head.booksCompanyGuid) break;
      // An alteration is a create under its voucher's first REMOTEID: beside creations, the counters could
      // not say which object was altered and which created, so it never shares their request.
      if ((job.booksVoucherGuid === null) !== (head.booksVoucherGuid === null)) break;
      const shape = this.shapeOf(job);
      if (!shape || !canJoin(headShape, shape)) break;
      group.push(job);
    }
    return group;
  }

  private shapeOf(job: OpenJob): EnvelopeShape | undefined {
    this.prime([{ job_id: job.jobId, xml: job.xml }]);
    return this.shapes.get(job.jobId);
  }

  private async runGroup(group: OpenJob[]): Promise<PassEnd> {
    try {
      // The prepared request's types were checked while the books imported the last one.
      const fitting = this.preparedFor(group) ? group : this.refuseMisfitTypes(group);
      if (fitting.length > 0) await this.importGroup(fitting);
      return 'done';
    } catch (error) {
      return this.booksUnavailable(group, error);
    }
  }

  /**
   * Fails, without sending it, a voucher job whose type the books have as another kind than the write's
   * (a Payment type on a receipt): the books would book it as that kind. Returns the others, in order.
   */
  private refuseMisfitTypes(group: OpenJob[]): OpenJob[] {
    const fitting: OpenJob[] = [];
    const misfits: [StoredJob, JobOutcome][] = [];
    for (const job of group) {
      const misfit = this.typeMisfit(job);
      if (misfit) misfits.push([job, { status: 'failed', ...misfit }]);
      else fitting.push(job);
    }
    if (misfits.length > 0) this.settle(misfits);
    return fitting;
  }

  private typeMisfit(job: OpenJob): JobFailure | undefined {
    if (job.jobType !== 'voucher') return undefined;
    const [writeKind, action] = job.eventType.split('.');
    if ((action !== 'create' && action !== 'alter') || !isVoucherKind(writeKind) || writeKind === 'other') return undefined;
    const typeName = this.shapeOf(job)?.voucherTypeName;
    const inBooks = typeName === undefined ? undefined : this.options.books.voucherTypeKind({ guid: job.booksCompanyGuid, name: job.booksCompanyName }, typeName);
    if (!inBooks || writeTakesKind(writeKind, inBooks.kind)) return undefined;
    const [booked, written] = [voucherKindWords(inBooks.kind), voucherKindWords(writeKind)];
    return {
      error_code: 'VOUCHER_TYPE_MISMATCH',
      error_label: jobErrorLabel('VOUCHER_TYPE_MISMATCH'),
      error_message:
        `The voucher type "${typeName}" derives from ${inBooks.reservedName} in the books: it would be booked as a ${booked}, ` +
        `not a ${written}. Use a voucher type of the ${written} kind. Nothing was imported.`,
    };
  }

  /** The request for `group`: its envelopes, joined into one when there are several. */
  private requestFor(group: readonly OpenJob[]): ImportRequest {
    const shapes = group.map((job) => this.shapeOf(job));
    const objects = shapes.reduce((n, s) => n + (s?.objectCount ?? 1), 0);
    const xml = group.length === 1 ? (group[0] as OpenJob).xml : joinEnvelopes(shapes as EnvelopeShape[]);
    return { group, shapes, body: encodeBooksRequest(xml), objects };
  }

  /** The prepared request when it is for exactly these jobs (none refused meanwhile), else worked out now. */
  private requestOf(group: readonly OpenJob[]): ImportRequest {
    const prepared = this.preparedFor(group);
    this.prepared = undefined;
    return prepared ?? this.requestFor(group);
  }

  /** The prepared request, when it is for exactly these jobs. */
  private preparedFor(group: readonly OpenJob[]): ImportRequest | undefined {
    const prepared = this.prepared;
    const same = prepared !== undefined && prepared.group.length === group.length && prepared.group.every((job, index) => group[index] === job);
    return same ? prepared : undefined;
  }

  private async importGroup(group: OpenJob[]): Promise<void> {
    const { shapes, body, objects: objectCount } = this.requestOf(group);
    const rechecked = group.length === 1 && needsCheck(group[0] as StoredJob);
    // Only this request's 'importing' mark (unless written when received) goes before it leaves. The
    // last request's outcomes are written and reported once it is on its way: the books need not wait
    // for that, and the relay's next run then arrives while they work, not while this one is sent.
    this.options.jobs.markImporting(group.map((j) => j.jobId));
    const settleLast = this.settleLater();
    let verdict: ImportVerdict;
    try {
      const onSent = () => {
        settleLast();
        this.prepareNext(group);
      };
      verdict = await this.options.books.importXml(body, { objects: objectCount, action: shapes[0]?.action ?? 'create', onSent });
    } finally {
      settleLast();
    }
    if (verdict.kind === 'failure' && verdict.companyNotOpen) return this.holdForClosedCompany(group);
    if (group.length === 1) {
      const job = group[0] as StoredJob;
      if (verdict.kind === 'failure' && rechecked && shapes[0]?.action === 'delete' && verdict.targetMissing) {
        this.options.log.info(`job ${job.jobId}: its earlier deletion had gone in; the books no longer have the object`);
        return this.settle([[job, job.booksVoucherGuid ? targetOutcome(job, job.booksVoucherGuid) : completedOutcome(job, null, null)]]);
      }
      if (verdict.kind === 'failure') return this.settle([[job, { status: 'failed', ...verdict.failure }]]);
      if (rechecked && verdict.altered > 0) {
        this.options.log.info(`job ${job.jobId}: its earlier import had gone in; the books matched its REMOTEID, nothing was booked twice`);
      }
      return this.settle([[job, completedOutcome(job, verdict.lastVchId, verdict.lastMasterId)]]);
    }
    // Every object created, in order: the books numbered them consecutively up to LASTVCHID.
    if (verdict.kind === 'success' && verdict.created === objectCount && verdict.lastVchId !== null && shapes.every((s) => s?.objectCount === 1)) {
      const first = verdict.lastVchId - objectCount + 1;
      return this.settle(group.map((job, index) => [job, completedOutcome(job, job.jobType === 'voucher' ? first + index : null, null)]));
    }
    // A request the strict rule passed (every object accounted for) also completes each job of a group
    // whose jobs name their objects: masters (the books give no per-master id: LASTMID stays 0) and
    // voucher alterations and cancellations (each names its voucher); sent again alone, each would be
    // applied twice. Deletions never share a request (see canJoin).
    if (verdict.kind === 'success' && group.every((job) => job.jobType === 'master')) {
      return this.settle(group.map((job) => [job, completedOutcome(job, null, null)]));
    }
    // Alterations are re-sent creates under each voucher's first REMOTEID: all of them ALTERED (none
    // CREATED) says each re-stated its own voucher.
    const everyTargetChanged = shapes[0]?.action !== 'create' || (verdict.kind === 'success' && verdict.created === 0 && verdict.altered === objectCount);
    if (verdict.kind === 'success' && everyTargetChanged && group.every((job) => job.booksVoucherGuid !== null)) {
      return this.settle(group.map((job) => [job, targetOutcome(job, job.booksVoucherGuid as string)]));
    }
    // Otherwise the answer cannot say which job got what: each goes again alone. Those that went in are
    // matched by their REMOTEID (altered, not booked again); the others get their own error.
    for (const job of group) {
      if (this.closedCompanies.has(job.booksCompanyGuid)) this.holdForClosedCompany([job]);
      else await this.importGroup([job]);
    }
  }

  /**
   * The books refused the whole request because its company is not open: nothing was imported. Its jobs
   * wait (queued again, those with an unknown outcome still to be looked up) until presence sees the
   * company open (companiesOpen); the other companies' jobs go on meanwhile.
   */
  private holdForClosedCompany(group: readonly OpenJob[]): void {
    const head = group[0] as OpenJob;
    this.closedCompanies.set(head.booksCompanyGuid, head.booksCompanyName);
    const unsent = group.filter((job) => !needsCheck(job)).map((job) => job.jobId);
    if (unsent.length > 0) this.options.jobs.markQueued(unsent);
    this.options.log.warn(`jobs of "${head.booksCompanyName}" wait: the company is not open in the books`);
  }

  /** Keeps a request's outcomes until they are written (see settleLater). */
  private settle(outcomes: Settlement): void {
    this.unwritten = [...this.unwritten, ...outcomes];
    for (const [job] of outcomes) this.shapes.delete(job.jobId);
  }

  /**
   * A line per settled job, logged when its outcome is written — after the next request left, not
   * between an answer and the next request: the connector's log keeps each line in its database (one
   * write per line at the default level), which the books would otherwise wait for, a hundred per request.
   */
  private logOutcomes(outcomes: Settlement): void {
    for (const [job, outcome] of outcomes) {
      if (outcome.status === 'failed') this.options.log.warn(`job ${job.jobId} failed: ${outcome.error_code} — ${outcome.error_message}`);
      else this.options.log.info(`job ${job.jobId} completed${outcome.books_voucher_guid ? ` as ${outcome.books_voucher_guid}` : ''}`);
    }
  }

  /**
   * Takes the outcomes kept so far; the returned function writes them (one transaction) and hands the
   * settled jobs on to be reported, the first time it is called. Until then those jobs stay 'importing'
   * on disk — after a crash, outcome unknown: looked up by REMOTEID, never booked twice.
   */
  private settleLater(): () => void {
    const outcomes = this.unwritten;
    this.unwritten = [];
    let pending = outcomes.length > 0;
    return () => {
      if (!pending) return;
      pending = false;
      this.options.onSettled(this.options.jobs.settle(outcomes.map(([job, outcome]) => ({ job, outcome }))));
      this.logOutcomes(outcomes);
    };
  }

  private booksUnavailable(group: StoredJob[], error: unknown): PassEnd {
    if (!(error instanceof BooksRequestError)) throw error;
    // Nothing reached the books: the jobs are plainly queued again. Otherwise they stay 'importing'
    // (outcome unknown) and are looked up before anything is sent again.
    if (!error.maybeReceived) this.options.jobs.markQueued(group.map((j) => j.jobId));
    this.options.jobs.unmarkUnsent();
    this.waitingForBooks = error.message;
    this.options.log.warn(`jobs wait for the books: ${error.message}`);
    this.options.onBooksUnavailable?.(error.message);
    return 'books_unavailable';
  }
}

/**
 * A job whose earlier import may have reached the books: we sent it and never heard back, or the relay
 * delivers it again (attempt > 1). It goes alone, so the answer (ALTERED vs CREATED) is about it alone.
 */
function needsCheck(job: StoredJob): boolean {
  return job.state === 'importing' || job.attempt > 1;
}

/** A voucher job that named its voucher (alter, delete, cancel), completed on that voucher. */
function targetOutcome(job: StoredJob, guid: string): JobOutcome {
  const masterId = masterIdInBooksGuid(job.booksCompanyGuid, guid);
  return { status: 'completed', books_voucher_guid: guid, books_master_id: masterId === null ? null : String(masterId) };
}

function completedOutcome(job: StoredJob, voucherMasterId: number | null, lastMasterId: number | null): JobOutcome {
  if (job.jobType === 'master') {
    return { status: 'completed', books_master_id: lastMasterId && lastMasterId > 0 ? String(lastMasterId) : null };
  }
  const guid = voucherMasterId && voucherMasterId > 0 ? booksGuidFor(job.booksCompanyGuid, voucherMasterId) : job.booksVoucherGuid;
  return {
    status: 'completed',
    books_voucher_guid: guid,
    books_master_id: voucherMasterId && voucherMasterId > 0 ? String(voucherMasterId) : null,
  };
}
