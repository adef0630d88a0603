// The jobs side of the conversation with the relay: jobs handed over are stored and acknowledged,
// outcomes are reported, and the relay's acknowledgements of them go to the store. The relay hands jobs
// over and acknowledges outcomes in runs (a burst of one-job messages, or one message a run with the
// job-runs feature); each run is handled together — one transaction, one message back — once the
// frames at hand have been read.
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

export class JobExchange {
  /** Jobs handed over and not stored yet. */
  private readonly handedOver: AssignedJob[] = [];

  constructor(private readonly options: JobExchangeOptions) {}

  /** job.assign / jobs.assign: stored together once the frames at hand are read, then acknowledged. */
  receive(jobs: readonly AssignedJob[]): void {
    if (this.handedOver.length === 0) queueMicrotask(() => this.storeHandedOver());
    this.handedOver.push(...jobs);
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

  private storeHandedOver(): void {
    const jobs = this.handedOver.splice(0);
    if (!this.options.open()) return; // stopping: unacknowledged, the relay hands them out again
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
    if (stored.some(({ job, isNew }) => isNew || job.state !== 'settled')) void this.options.runner.wake();
    this.options.changed();
  }
}

function chunks<T>(items: readonly T[]): T[][] {
  const parts: T[][] = [];
  for (let first = 0; first < items.length; first += MAX_JOB_RUN) parts.push(items.slice(first, first + MAX_JOB_RUN));
  return parts;
}
