// What the gateway needs from the rest of the relay, as shapes: the bridge-API helper's JobQueue,
// PulledDataStore, company repository and customer lookup, and the webhook engine's publish. The real
// classes satisfy these structurally (the type-checker holds them to it); tests of the protocol alone
// can hand in small in-memory versions.
import type { SyncMasterItem, SyncVoucherItem } from '@ledgerwire/shared';
import type { ClaimedJob } from '../../bridge/services/jobs/job-queue.js';
import type { JobOutcomeReport } from '../../bridge/store/jobs/record-outcomes.js';

/** A job as the queue hands it out (the bridge's own type; the gateway only reads it). */
export type GatewayClaimedJob = ClaimedJob;

export type GatewayJobQueue = {
  claimForConnector(
    connectorId: string,
    options: { limit: number; leaseMs: number; sessionId: string; companyOpen: (booksCompanyGuid: string) => boolean },
  ): Promise<readonly GatewayClaimedJob[]>;
  /** One transaction for the run; per report, whether it settled the job (false: a repeat or not this connector's). */
  recordOutcomes(connectorId: string, reports: readonly JobOutcomeReport[]): Promise<boolean[]>;
  requeueConnectorJobs(connectorId: string, options?: { countRetry: boolean }): Promise<number>;
  /** Extends the leases of the session's jobs named (still processing under it); returns those renewed. */
  renewLeases(connectorId: string, sessionId: string, jobIds: readonly string[], leaseMs: number): Promise<{ renewed: string[]; leaseExpiresAt: string }>;
  expireLeases(): Promise<number>;
  onJobQueued(listener: (companyId: number) => void): void;
};

export type GatewayPulledData = {
  upsertVouchers(companyId: number, vouchers: readonly SyncVoucherItem[]): Promise<void>;
  upsertMasters(companyId: number, masters: readonly SyncMasterItem[]): Promise<void>;
  markVouchersDeleted(companyId: number, guids: readonly string[]): Promise<void>;
  markMastersDeleted(companyId: number, guids: readonly string[]): Promise<void>;
  saveReportSnapshot(companyId: number, report: { key: 'stock' | 'gst'; rows: readonly unknown[] }): Promise<void>;
};

export type GatewayPairedCompany = Readonly<{
  company_id: number;
  books_company_guid: string;
  books_company_name: string;
  application_id: string;
}>;

export type GatewayCompanies = {
  findPairedCompanies(connectorId: string): Promise<readonly GatewayPairedCompany[]>;
  /** The same for many connectors in one read; a connector without pairings has no entry. */
  findPairedCompaniesOf(connectorIds: readonly string[]): Promise<ReadonlyMap<string, readonly GatewayPairedCompany[]>>;
};

/** The customer a current enrolment token belongs to; undefined for an unknown or rotated token. */
export type GatewayCustomerLookup = {
  findByToken(token: string): Promise<{ id: string; application_id: string } | undefined>;
};

export type PresenceEventType = 'connector.online' | 'connector.offline' | 'books.started' | 'books.stopped';

export type GatewayWebhookPublisher = {
  publish(owner: { kind: 'application'; id: string }, event: { type: PresenceEventType; data: Record<string, unknown> }): Promise<unknown>;
};

export type Clock = () => Date;
