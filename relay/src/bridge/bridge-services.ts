// Builds the accounting bridge's services once per app: repositories, the job queue the gateway
// claims from, the pulled-data store it writes into, and the lease reaper loop (workers/lease-reaper.ts).
import type { FastifyBaseLogger } from 'fastify';
import type { BridgeConfig } from '../config/load-config.js';
import { relayClock, type RelayClock } from '../foundation/clock.js';
import type { RelayDatabase } from '../db/database.js';
import type { BackgroundLoop } from '../background/background-loop.js';
import { GroupedRateCount } from '../limits/grouped-rate-count.js';
import { RateLimiter, rateLimiterOptionsFor } from '../limits/rate-limiter.js';
import type { KeyedDigest } from '../security/keyed-digest.js';
import { ApplicationService } from './services/applications/application-service.js';
import type { KeyRequestCounter } from './routes/bridge-auth.js';
import { CompanyScope } from './services/companies/company-scope.js';
import { CompanyRepository } from './store/companies/company-repository.js';
import { CompanyService, type BridgeEventPublisher } from './services/companies/company-service.js';
import { ConnectSessionService } from './services/connect-sessions/connect-session-service.js';
import type { ConnectorDirectory } from './services/companies/connector-directory.js';
import { ConnectorRepository } from './store/connectors/connector-repository.js';
import { CustomerService } from './services/customers/customer-service.js';
import { JobQueue } from './services/jobs/job-queue.js';
import { TransactionService } from './services/jobs/transaction-service.js';
import { PulledDataStore } from './store/pulled/pulled-data-store.js';
import { PulledMasterService } from './services/pulled/pulled-master-service.js';
import { PulledVoucherService } from './services/pulled/pulled-voucher-service.js';
import { SyncStatisticsService } from './services/pulled/sync-statistics.js';
import { MasterWriteService } from './services/writes/master-write-service.js';
import { VoucherLifecycleService } from './services/writes/voucher-lifecycle-service.js';
import { VoucherTypeKinds } from './services/writes/voucher-kind-lookup.js';
import { VoucherWriteService } from './services/writes/voucher-write-service.js';
import { createLeaseReaper } from './workers/lease-reaper.js';

export type BridgeServices = Readonly<{
  config: BridgeConfig;
  applications: ApplicationService;
  customers: CustomerService;
  companyRepository: CompanyRepository;
  companies: CompanyService;
  /** Connect sessions: the integrator's link, the setup code, the hosted page's progress. */
  connectSessions: ConnectSessionService;
  /** Digests of setup codes and page tokens (HMAC under a relay key, never a plain hash). */
  connectSecrets: KeyedDigest;
  companyScope: CompanyScope;
  jobQueue: JobQueue;
  transactions: TransactionService;
  vouchers: VoucherWriteService;
  /** Cancel and delete of a voucher in the books. */
  voucherLifecycle: VoucherLifecycleService;
  masters: MasterWriteService;
  pulledData: PulledDataStore;
  pulledVouchers: PulledVoucherService;
  pulledMasters: PulledMasterService;
  statistics: SyncStatisticsService;
  limiter: RateLimiter;
  /** Counts each API request against its key's per-minute budget (see bridge-auth.ts). */
  keyRequests: KeyRequestCounter;
  /** The gateway's connector records, read for health, connector jobs and pairing. */
  connectors: ConnectorDirectory;
  leaseReaper: BackgroundLoop;
  /** The module's background loops, for /readyz and the console. */
  loops: readonly BackgroundLoop[];
}>;

export function createBridgeServices(deps: {
  database: RelayDatabase;
  config: BridgeConfig;
  /** The relay's public address, which connect-session links start with. */
  publicUrl: string;
  /** HMAC digests under a key kept outside the database (security/keyed-digest.ts), one key per purpose. */
  keyedDigest: (purpose: string) => KeyedDigest;
  log: FastifyBaseLogger;
  /** Late-bound: the webhook engine is built beside the bridge. */
  events: () => BridgeEventPublisher | undefined;
  /** The relay's clock (app.clock); the system clock when left out (the admin CLI). */
  clock?: RelayClock;
}): BridgeServices {
  const { db, capabilities } = deps.database;
  const { now, date: clock } = deps.clock ?? relayClock();
  const connectors: ConnectorDirectory = new ConnectorRepository({ db });
  const customers = new CustomerService({ db, clock });
  const companyScope = new CompanyScope({ db, now });
  const companyRepository = new CompanyRepository({ db, clock, onChange: () => companyScope.forget() });
  const jobQueue = new JobQueue({ db, capabilities, clock, maxRetries: deps.config.maxRetries, webhooksQueued: () => deps.events()?.notifyQueued?.() });
  const leaseReaper = createLeaseReaper({ db, jobQueue, intervalMs: deps.config.leaseReaperIntervalMs, log: deps.log });
  const voucherTypes = new VoucherTypeKinds({ db, now });
  // On SQLite (one process) per-minute counts are kept in memory, as the messaging API keeps its
  // burst counts: no write transaction per request. On PostgreSQL they stay in the shared table,
  // committed without waiting for the WAL flush, and the requests of one key read in the same turn (or
  // while its last count was written) are counted with one write.
  const limiter = new RateLimiter(db, now, rateLimiterOptionsFor(capabilities));
  const companies: CompanyService = new CompanyService({
    companies: companyRepository,
    customers,
    connectors: () => connectors,
    events: deps.events,
    paired: (connectorId, companyId) => connectSessions.companyPaired(connectorId, companyId),
    log: deps.log,
  });
  // A 40-bit setup code in a copied database must not be undone offline: only its HMAC is stored.
  const connectSecrets = deps.keyedDigest('connect-session-secrets');
  const connectSessions: ConnectSessionService = new ConnectSessionService({
    db,
    secrets: connectSecrets,
    customers,
    companies,
    companyRepository,
    connectors: () => connectors,
    webhooksQueued: () => deps.events()?.notifyQueued?.(),
    publicUrl: deps.publicUrl,
    clock,
  });
  return Object.freeze({
    config: deps.config,
    applications: new ApplicationService({ db, clock }),
    customers,
    companyRepository,
    companies,
    connectSessions,
    connectSecrets,
    companyScope,
    jobQueue,
    transactions: new TransactionService({ db, connectors: () => connectors }),
    vouchers: new VoucherWriteService({ db, queue: jobQueue, voucherTypes, clock }),
    voucherLifecycle: new VoucherLifecycleService({ db, queue: jobQueue, clock }),
    masters: new MasterWriteService({ queue: jobQueue, clock }),
    pulledData: new PulledDataStore({ db, capabilities, clock, onMastersChange: () => voucherTypes.forget() }),
    pulledVouchers: new PulledVoucherService({ db, clock }),
    pulledMasters: new PulledMasterService({ db }),
    statistics: new SyncStatisticsService({ db }),
    limiter,
    keyRequests: capabilities.sharedAcrossProcesses ? new GroupedRateCount(limiter) : limiter,
    connectors,
    leaseReaper,
    loops: [leaseReaper],
  });
}
