// Messages the relay sends to the connector: one zod discriminated union on `type`, each carrying the
// protocol version `v`. The connector validates every frame with parseServerMessage.
import { z } from 'zod';
import { MAX_JOB_RUN, ProtocolCompanyId, ProtocolFeatures, ProtocolJobId, ConnectorPairedCompany, ProtocolVersion, SyncCursor, SyncKind } from './protocol-common.js';
import { PingMessage, PongMessage, ProtocolErrorMessage } from './heartbeat-messages.js';

/** The relay's answer to hello: who the connector is, the session's timings, pairings and confirmed cursors. */
export const WelcomeMessage = z.object({
  type: z.literal('welcome'),
  v: ProtocolVersion,
  connector_id: z.string().min(1),
  session_id: z.string().min(1),
  server_time: z.iso.datetime(),
  /** The relay pings at this interval; the connector should treat ~2 intervals of silence as a dead link. */
  heartbeat_ms: z.number().int().positive(),
  /** How long a job.assign's lease lasts; an unanswered job is delivered again after it. */
  lease_ms: z.number().int().positive(),
  /** Jobs the relay keeps in flight on this session at most. */
  max_in_flight: z.number().int().positive(),
  companies: z.array(ConnectorPairedCompany),
  /** The last cursor the relay confirmed per company and kind, so a reinstalled connector can resume. */
  sync_cursors: z.array(z.object({ company_id: ProtocolCompanyId, kind: SyncKind, cursor: SyncCursor })),
  /** The features of hello this session uses (both sides know them); absent or empty: none. */
  features: ProtocolFeatures.optional(),
});
export type WelcomeMessage = z.infer<typeof WelcomeMessage>;

/** A job to run against the books. Delivered at least once: the connector deduplicates on job_id. */
export const AssignedJob = z.object({
  job_id: ProtocolJobId,
  company_id: ProtocolCompanyId,
  books_company_guid: z.string().min(1),
  books_company_name: z.string(),
  job_type: z.enum(['voucher', 'master']),
  event_type: z.string().min(1),
  /** The rendered import envelope. */
  xml: z.string().min(1),
  /** What the books use to recognise a retry of the same voucher (REMOTEID). */
  remote_id: z.string().min(1),
  /** Set when the job alters an existing voucher. */
  books_voucher_guid: z.string().nullable(),
  /** 1 on the first delivery; higher after the job was requeued. */
  attempt: z.number().int().positive(),
  lease_expires_at: z.iso.datetime(),
});
export type AssignedJob = z.infer<typeof AssignedJob>;

export const JobAssignMessage = z.object({
  type: z.literal('job.assign'),
  v: ProtocolVersion,
  job: AssignedJob,
});
export type JobAssignMessage = z.infer<typeof JobAssignMessage>;

/**
 * The relay has durably handled a job.result: `recorded` when this report settled the job,
 * `duplicate` when it was already settled (a repeat). Either way the connector may drop it from its outbox.
 */
export const JobResultAckMessage = z.object({
  type: z.literal('job.result.ack'),
  v: ProtocolVersion,
  job_id: ProtocolJobId,
  disposition: z.enum(['recorded', 'duplicate']),
});
export type JobResultAckMessage = z.infer<typeof JobResultAckMessage>;

/** job-runs: a company's claimed run, oldest first, as job.assign would carry each (see JOB_RUNS_FEATURE). */
export const JobsAssignMessage = z.object({
  type: z.literal('jobs.assign'),
  v: ProtocolVersion,
  jobs: z.array(AssignedJob).min(1).max(MAX_JOB_RUN),
});
export type JobsAssignMessage = z.infer<typeof JobsAssignMessage>;

/** job-runs: the answer to one jobs.result, a disposition per job as job.result.ack gives it. */
export const JobsResultAckMessage = z.object({
  type: z.literal('jobs.result.ack'),
  v: ProtocolVersion,
  acks: z.array(JobResultAckMessage.pick({ job_id: true, disposition: true })).min(1).max(MAX_JOB_RUN),
});
export type JobsResultAckMessage = z.infer<typeof JobsResultAckMessage>;

/** The batch is stored; the connector may advance its confirmed cursor to this one. */
export const SyncAckMessage = z.object({
  type: z.literal('sync.ack'),
  v: ProtocolVersion,
  batch_id: z.string().min(1),
  company_id: ProtocolCompanyId,
  kind: SyncKind,
  cursor: SyncCursor,
  /** Items the relay stored from this batch. */
  accepted: z.number().int().nonnegative(),
});
export type SyncAckMessage = z.infer<typeof SyncAckMessage>;

/** The companies paired to this connector changed (pair, unpair, disconnect). */
export const PairingsMessage = z.object({
  type: z.literal('pairings'),
  v: ProtocolVersion,
  companies: z.array(ConnectorPairedCompany),
});
export type PairingsMessage = z.infer<typeof PairingsMessage>;

export const ServerMessage = z.discriminatedUnion('type', [
  WelcomeMessage,
  JobAssignMessage,
  JobResultAckMessage,
  JobsAssignMessage,
  JobsResultAckMessage,
  SyncAckMessage,
  PairingsMessage,
  PingMessage,
  PongMessage,
  ProtocolErrorMessage,
]);
export type ServerMessage = z.infer<typeof ServerMessage>;
