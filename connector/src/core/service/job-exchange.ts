// The jobs side of the conversation with the relay: jobs handed over are stored and acknowledged,
// outcomes are reported, and the relay's acknowledgements of them go to the store. The relay hands jobs
// over and acknowledges outcomes in runs (a burst of one-job messages, or one message a run with the
// job-runs feature); the jobs handed over are stored once the frames at hand have been read, at most
// STORE_SLICE of them per event-loop turn — one transaction and one message back per slice — so that
// the books' answer to the import under way, arriving meanwhile, waits for one slice and not for a
// whole run: the books sit idle until the next request leaves.
import { CONNECTOR_PROTOCOL_VERSION, MAX_JOB_RUN, type AssignedJob, type ClientMessage } from '@ledgerwire/shared';
import type { JobRunner } from '../jobs/job-runner.js';
import type { JobStore, StoredJob } from '../state/job-store.js';

export type JobExchangeOptions = Readonly<{
  jobs: JobStore;
  runner: JobRunner;
  /** Sends to the relay; false when it is not connected (outcomes then wait in the outbox). */
  send: (message: ClientMessage) => boolean;
  /** Whether this session speaks job-runs (the relay said so in welcome). */
  jobRuns: () => boolean;
  /** False once the connector is stopping: nothing more is written. */
  open: () => boolean;
  changed: () => void;
}>;

/**
 * Jobs stored in one turn of the event loop: a slice's transaction serves many jobs, and an import
 * answer that arrives meanwhile waits for one slice only.
 */
export const STORE_SLICE = 50;

export class JobExchange {
  /**
   * Jobs handed over and not stored yet. While it holds any, storing them is scheduled (a microtask
   * first, then a turn per slice).
   */
  private readonly handedOver: AssignedJob[] = [];
  /** Whether a slice stored since the runner was last woken holds a job to run. */
  private runnable = false;

  constructor(private readonly options: JobExchangeOptions) {}

  /** job.assign / jobs.assign: stored once the frames at hand are read, a slice per turn, each acknowledged once stored. */
  receive(jobs: readonly AssignedJob[]): void {
    if (jobs.length === 0) return;
    const scheduled = this.handedOver.length > 0;
    this.handedOver.push(...jobs);
    if (!scheduled) queueMicrotask(() => this.storeHandedOver());
  }

  /** Sends settled jobs' outcomes; while the relay is away they stay in the outbox for the next welcome. */
  report(jobs: readonly StoredJob[]): void {
    const results = jobs.flatMap((job) => (job.outcome ? [{ job_id: job.jobId, outcome: job.outcome }] : []));
    if (results.length === 0) return;
    if (!this.options.jobRuns()) {
      for (const result of results) this.options.send({ type: 'job.result', v: CONNECTOR_PROTOCOL_VERSION, ...result });
      return;
    }
    for (const part of chunks(results)) this.options.send({ type: 'jobs.result', v: CONNECTOR_PROTOCOL_VERSION, results: part });
  }

  /** job.result.ack / jobs.result.ack: written as reported with the store's next write (see JobStore.acknowledge). */
  outcomesAcknowledged(jobIds: readonly string[]): void {
    this.options.jobs.acknowledge(jobIds);
  }

  /**
   * Stores, acknowledges and primes one slice of the handed-over jobs and leaves the rest for the next
   * turn, after the I/O that arrived meanwhile. The runner is woken once none are left, so that its next
   * request takes the whole run rather than its first slice; the relay hands over no more than its
   * in-flight limit before it hears outcomes, so the queue always empties.
   */
  private storeHandedOver(): void {
    if (!this.options.open()) {
      // Stopping: unacknowledged, the relay hands them out again.
      this.handedOver.length = 0;
      return;
    }
    const jobs = this.handedOver.splice(0, STORE_SLICE);
    const more = this.handedOver.length > 0;
    if (more) setImmediate(() => this.storeHandedOver());
    const stored = this.options.jobs.receive(jobs);
    this.options.runner.prime(jobs.filter((_, index) => stored[index]?.isNew));
    const ids = stored.map(({ job }) => job.jobId);
    if (this.options.jobRuns()) {
      for (const part of chunks(ids)) this.options.send({ type: 'jobs.ack', v: CONNECTOR_PROTOCOL_VERSION, job_ids: part });
    } else {
      for (const id of ids) this.options.send({ type: 'job.ack', v: CONNECTOR_PROTOCOL_VERSION, job_id: id });
    }
    // Handed over again after we settled it: the relay missed our result, so say it again.
    this.report(stored.filter(({ job, isNew }) => !isNew && job.state === 'settled').map(({ job }) => job));
    this.runnable ||= stored.some(({ job, isNew }) => isNew || job.state !== 'settled');
    if (!more && this.runnable) {
      this.runnable = false;
      void this.options.runner.wake();
    }
    this.options.changed();
  }
}

function chunks<T>(items: readonly T[]): T[][] {
  const parts: T[][] = [];
  for (let first = 0; first < items.length; first += MAX_JOB_RUN) parts.push(items.slice(first, first + MAX_JOB_RUN));
  return parts;
}
