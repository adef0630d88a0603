// Pieces every connector-protocol message shares: the protocol version carried in `v`, ids and the
// shapes that both directions mention (books state, companies open in the books, pairings).
import { z } from 'zod';

/** The version of the connector protocol this build speaks. Bump on a breaking change of any message. */
export const CONNECTOR_PROTOCOL_VERSION = 1 as const;

/** Every message carries the version; a peer answers an unknown version with an error and closes. */
export const ProtocolVersion = z.literal(CONNECTOR_PROTOCOL_VERSION);

/** Optional protocol features a side understands beyond the base (hello offers, welcome settles). */
export const ProtocolFeatures = z.array(z.string().min(1).max(50)).max(20);

/**
 * The job-runs feature: a run of jobs travels as one message each way instead of one per job — the
 * relay hands a claimed run over in one jobs.assign, the connector acknowledges it in one jobs.ack and
 * reports an import request's outcomes in one jobs.result, which the relay answers with one
 * jobs.result.ack. Without it both sides keep to the one-job messages, so either side may be older.
 */
export const JOB_RUNS_FEATURE = 'job-runs';

/**
 * The largest frame either side accepts; a larger one closes the socket. The connector keeps its sync
 * batches well below it (see MAX_SYNC_BATCH_BYTES).
 */
export const MAX_FRAME_BYTES = 32 * 1024 * 1024;

/** The connector flushes a sync batch before its items pass this many bytes of JSON. */
export const MAX_SYNC_BATCH_BYTES = 8 * 1024 * 1024;

/** At most this many jobs in one run message (the relay's in-flight limit is far below it). */
export const MAX_JOB_RUN = 1000;

/** Job ids are the transaction's public id; the connector deduplicates on it. */
export const ProtocolJobId = z.string().min(1).max(100);

/** The service's company id (never the books' GUID). */
// 32-bit, as the companies table's key on PostgreSQL (a larger id overflowed mid-query: a 500).
export const ProtocolCompanyId = z.number().int().positive().max(2_147_483_647);

export const BooksOpenCompany = z.object({
  guid: z.string().min(1).max(200),
  name: z.string().min(1).max(500),
});
export type BooksOpenCompany = z.infer<typeof BooksOpenCompany>;

/** Whether the books company with this GUID (case aside, as the books' own GUIDs) is among those open. */
export function booksCompanyOpen(open: readonly { guid: string }[], guid: string): boolean {
  const wanted = guid.toLowerCase();
  return open.some((company) => company.guid.toLowerCase() === wanted);
}

/** What the connector knows about the books program on its machine. */
export const ConnectorBooksState = z.object({
  running: z.boolean(),
  /** Product and release, e.g. "TallyPrime 5.1", when the books answered. */
  product: z.string().max(200).nullable().optional(),
  /** Companies loaded in the books right now (GUID + name). */
  open_companies: z.array(BooksOpenCompany).max(1000),
});
export type ConnectorBooksState = z.infer<typeof ConnectorBooksState>;

/** A service company paired to this connector, as the relay sees it. */
export const ConnectorPairedCompany = z.object({
  company_id: ProtocolCompanyId,
  books_company_guid: z.string().min(1),
  books_company_name: z.string(),
});
export type ConnectorPairedCompany = z.infer<typeof ConnectorPairedCompany>;

export const SyncKind = z.enum(['vouchers', 'masters', 'deletions', 'report']);
export type SyncKind = z.infer<typeof SyncKind>;

/** Opaque to the relay: the connector's position (e.g. the books' AltVchId) the batch brings it up to. */
export const SyncCursor = z.string().min(1).max(500);
