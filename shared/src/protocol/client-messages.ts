// Messages the connector sends to the relay: one zod discriminated union on `type`, each message
// carrying the protocol version `v`. The relay validates every frame with parseClientMessage.
import { z } from 'zod';
import { ConnectorBooksState, MAX_JOB_RUN, ProtocolCompanyId, ProtocolFeatures, ProtocolJobId, ProtocolVersion, SyncCursor } from './protocol-common.js';
import { SyncMasterItem, SyncReportItem, SyncDeletionItem, SyncVoucherItem } from './sync-items.js';
import { PingMessage, PongMessage, ProtocolErrorMessage } from './heartbeat-messages.js';

/** The connector received a job.assign and stored it; repeated for a redelivered job (dedupe by id). */
export const JobAckMessage = z.object({
  type: z.literal('job.ack'),
  v: ProtocolVersion,
  job_id: ProtocolJobId,
});
export type JobAckMessage = z.infer<typeof JobAckMessage>;

export const JobOutcomeCompleted = z.object({
  status: z.literal('completed'),
  books_voucher_guid: z.string().min(1).max(200).nullable().optional(),
  books_master_id: z.string().min(1).max(100).nullable().optional(),
  books_alter_id: z.string().min(1).max(100).nullable().optional(),
});

export const JobOutcomeFailed = z.object({
  status: z.literal('failed'),
  /** A code of the bridge error catalogue, e.g. MASTER_NOT_FOUND. */
  error_code: z.string().regex(/^[A-Z][A-Z0-9_]{1,63}$/, 'must be an upper-case error code'),
  error_label: z.string().min(1).max(200),
  /** Sanitised for the caller: no XML, stack or credential. */
  error_message: z.string().min(1).max(2000),
});

/**
 * The outcome of a job. Idempotent on job_id: the connector re-sends outcomes it knows but has not
 * seen acknowledged (after a reconnect or a restart); the relay records the first and ignores repeats.
 */
export const JobResultMessage = z.object({
  type: z.literal('job.result'),
  v: ProtocolVersion,
  job_id: ProtocolJobId,
  outcome: z.discriminatedUnion('status', [JobOutcomeCompleted, JobOutcomeFailed]),
});
export type JobResultMessage = z.infer<typeof JobResultMessage>;

/** job-runs: the jobs of one jobs.assign, stored (see JOB_RUNS_FEATURE). */
export const JobsAckMessage = z.object({
  type: z.literal('jobs.ack'),
  v: ProtocolVersion,
  job_ids: z.array(ProtocolJobId).min(1).max(MAX_JOB_RUN),
});
export type JobsAckMessage = z.infer<typeof JobsAckMessage>;

/** job-runs: the outcomes of one import request, each as job.result would carry it (see JOB_RUNS_FEATURE). */
export const JobsResultMessage = z.object({
  type: z.literal('jobs.result'),
  v: ProtocolVersion,
  results: z.array(JobResultMessage.pick({ job_id: true, outcome: true })).min(1).max(MAX_JOB_RUN),
});
export type JobsResultMessage = z.infer<typeof JobsResultMessage>;

/**
 * First message after the socket opens; the relay answers `welcome` (or `error` and closes).
 * `outcomes` carries results the connector knows but never saw acknowledged (its outbox): the relay
 * records them before it hands the connector's unfinished jobs out again, so a finished job is not
 * delivered a second time. Each is answered with job.result.ack after welcome.
 */
export const HelloMessage = z.object({
  type: z.literal('hello'),
  v: ProtocolVersion,
  connector_version: z.string().min(1).max(50),
  books: ConnectorBooksState,
  outcomes: z.array(JobResultMessage.pick({ job_id: true, outcome: true })).max(1000).optional(),
  /** Optional features this connector understands (e.g. job-runs); the relay answers in welcome which it uses. */
  features: ProtocolFeatures.optional(),
});
export type HelloMessage = z.infer<typeof HelloMessage>;

/** Sent whenever the books start or stop or the set of open companies changes. */
export const PresenceMessage = z.object({
  type: z.literal('presence'),
  v: ProtocolVersion,
  books: ConnectorBooksState,
});
export type PresenceMessage = z.infer<typeof PresenceMessage>;

const syncBatchBase = {
  type: z.literal('sync.batch'),
  v: ProtocolVersion,
  /** Chosen by the connector; the relay echoes it in sync.ack. */
  batch_id: z.string().min(1).max(100),
  company_id: ProtocolCompanyId,
  /** The position this batch brings the company up to; the relay confirms it in sync.ack. */
  cursor: SyncCursor,
};

/** Pulled data for one paired company. The relay upserts it, then answers sync.ack with the cursor. */
export const SyncBatchMessage = z.discriminatedUnion('kind', [
  z.object({ ...syncBatchBase, kind: z.literal('vouchers'), items: z.array(SyncVoucherItem).max(5000) }),
  z.object({ ...syncBatchBase, kind: z.literal('masters'), items: z.array(SyncMasterItem).max(5000) }),
  z.object({ ...syncBatchBase, kind: z.literal('deletions'), items: z.array(SyncDeletionItem).max(50_000) }),
  z.object({ ...syncBatchBase, kind: z.literal('report'), items: z.array(SyncReportItem).max(10) }),
]);
export type SyncBatchMessage = z.infer<typeof SyncBatchMessage>;

export const ClientMessage = z.discriminatedUnion('type', [
  HelloMessage,
  JobAckMessage,
  JobResultMessage,
  JobsAckMessage,
  JobsResultMessage,
  PresenceMessage,
  SyncBatchMessage,
  PingMessage,
  PongMessage,
  ProtocolErrorMessage,
]);
export type ClientMessage = z.infer<typeof ClientMessage>;

