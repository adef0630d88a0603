// The connector, assembled: local state, books client, presence, job runner, sync and the relay link,
// and the rules that tie them together (a job result goes to the relay or waits in the outbox; a welcome
// re-reports what the relay has not acknowledged; books coming back wake waiting jobs). Both the CLI and
// the Electron shell drive the connector through this, via startConnectorService.
import type { ConnectorCompanyOut, ServerMessage, WelcomeMessage } from '@ledgerwire/shared';
import { CONNECTOR_PROTOCOL_VERSION, JOB_RUNS_FEATURE } from '@ledgerwire/shared';
import { BooksClient } from '../books/books-client.js';
import { BooksOperations } from '../books/books-operations.js';
import { TallyProgramWatch } from '../books/tally-program.js';
import { booksUrlFrom, DEFAULT_BOOKS_URL, type ConnectorConfig } from '../config/load-config.js';
import { JobRunner } from '../jobs/job-runner.js';
import { PresenceMonitor, type BooksPicture } from '../presence/presence-monitor.js';
import { findOpenCompany, type BooksCompany } from '../presence/books-company.js';
import { enrolWithRelay } from '../relay/enrolment.js';
import { RelayApi, RelayApiError } from '../relay/relay-api.js';
import { RelayLink } from '../relay/relay-link.js';
import { relayBaseUrl } from '../relay/relay-urls.js';
import { JobStore } from '../state/job-store.js';
import { openLocalDatabase, type LocalDatabase } from '../state/local-database.js';
import { LogStore, type LogEntry } from '../state/log-store.js';
import { PairingStore } from '../state/pairing-store.js';
import { SettingsStore } from '../state/settings-store.js';
import { SyncStateStore } from '../state/sync-state-store.js';
import { createLogger, errorText, type Logger, type LogSink } from '../support/logger.js';
import { SyncChannel } from '../sync/sync-channel.js';
import { SyncEngine, type CompanySyncResult, type SyncProgress } from '../sync/sync-engine.js';
import { CONNECTOR_VERSION } from '../version.js';
import {
  booksAttention,
  describeBooks,
  describePairing,
  describeQueue,
  describeRelay,
  describeSync,
  expectedVoucherChanges,
  type ConnectorStatus,
} from './connector-status.js';
import { JobExchange } from './job-exchange.js';
import { explainJob, type JobView } from './job-view.js';

/** Delivered outcomes are kept this long (to answer a late redelivery of the same job from memory). */
const JOB_RETENTION_MS = 14 * 24 * 3600_000;

/** On stop, how long an import already with the books may take to be answered before it is cut. */
const STOP_GRACE_MS = 5_000;

export class ConnectorService {
  readonly db: LocalDatabase;
  readonly settings: SettingsStore;
  readonly pairings: PairingStore;
  readonly jobs: JobStore;
  readonly syncState: SyncStateStore;
  readonly logStore: LogStore;
  readonly log: Logger;
  readonly books: BooksClient;
  private readonly operations: BooksOperations;
  private readonly presence: PresenceMonitor;
  /** Asked only while the books do not answer: TallyPrime closed, or open with its XML port off. */
  private readonly tallyProgram: TallyProgramWatch;
  private readonly runner: JobRunner;
  private readonly exchange: JobExchange;
  private readonly channel: SyncChannel;
  private readonly engine: SyncEngine;
  private link: RelayLink | undefined;
  private booksUrlValue: string;
  private syncTimer: NodeJS.Timeout | undefined;
  private syncing: Promise<CompanySyncResult[]> | undefined;
  private syncProgress: SyncProgress | null = null;
  private readonly listeners = new Set<(status: ConnectorStatus) => void>();
  /** Told of a change without the status being built (they read it when they need it). */
  private readonly changeListeners = new Set<() => void>();
  private started = false;
  private stopped = false;
  private lastStatus: ConnectorStatus | undefined;
  private notifyPending = false;
  /** Outcomes the last hello carried (the relay acknowledges them after welcome). */
  private sentInHello = new Set<string>();

  constructor(private readonly config: ConnectorConfig, sinks: readonly LogSink[] = []) {
    this.db = openLocalDatabase(config.dataDir, config.sqliteDriver);
    this.settings = new SettingsStore(this.db);
    this.pairings = new PairingStore(this.db);
    this.jobs = new JobStore(this.db);
    this.jobs.onAcknowledgedWritten = () => this.notify();
    this.syncState = new SyncStateStore(this.db);
    this.logStore = new LogStore(this.db);
    const keep: LogSink = (record) => {
      if (record.level !== 'debug') this.logStore.append(record.level, record.message);
    };
    this.log = createLogger([keep, ...sinks], config.logLevel === 'silent' ? 'info' : config.logLevel);
    if (config.booksUrl) this.settings.saveBooksUrl(config.booksUrl);
    this.booksUrlValue = config.booksUrl ?? this.settings.booksUrl() ?? DEFAULT_BOOKS_URL;
    this.books = new BooksClient({ url: this.booksUrl, timeoutMs: config.booksTimeoutMs });
    this.operations = new BooksOperations(this.books);
    this.tallyProgram = new TallyProgramWatch({ minGapMs: Math.max(config.presenceIntervalMs, 5_000) });
    this.presence = new PresenceMonitor({
      listCompanies: () => this.operations.listCompanies('presence'),
      isBusy: () => this.books.busy,
      intervalMs: config.presenceIntervalMs,
      stopConfirmMs: config.booksStopConfirmMs,
      log: this.log,
      onChange: () => this.booksChanged(),
      onProbe: (picture) => {
        this.askWhyBooksDoNotAnswer(picture.running);
        // Only books that answered properly: after a timeout, another import would queue behind the stuck one.
        const counts = this.jobs.counts();
        if (picture.running) this.runner.companiesOpen(picture.companies);
        if (picture.running && !picture.problem && counts.waiting + counts.importing > 0) void this.runner.wake();
        this.notify();
      },
    });
    this.runner = new JobRunner({
      jobs: this.jobs,
      books: this.operations,
      log: this.log,
      batchSize: config.importBatch,
      onSettled: (jobs) => {
        this.exchange.report(jobs);
        this.notify();
      },
      onBooksUnavailable: () => void this.presence.check(),
    });
    this.exchange = new JobExchange({
      jobs: this.jobs,
      runner: this.runner,
      send: (message) => this.link?.send(message) ?? false,
      jobRuns: () => this.link?.welcome?.features?.includes(JOB_RUNS_FEATURE) ?? false,
      open: () => this.db.isOpen && !this.stopped,
      changed: () => this.notify(),
    });
    this.channel = new SyncChannel((message) => this.link?.send(message) ?? false);
    this.engine = new SyncEngine({
      books: this.operations,
      state: this.syncState,
      pairings: this.pairings,
      channel: this.channel,
      log: this.log,
      windowVouchers: config.syncWindowVouchers,
      batchItems: config.syncBatchItems,
      deletionCheckEvery: config.deletionCheckEvery,
      onProgress: (progress) => {
        this.syncProgress = progress;
        this.notify();
      },
      onCompanies: (companies) => this.presence.observe(companies),
    });
  }

  get booksUrl(): string {
    return this.booksUrlValue;
  }

  /**
   * Where TallyPrime is: this computer (http://127.0.0.1:9000) or another of the office
   * (http://192.168.1.20:9000). Kept for the next start too; the books are asked at once.
   */
  async setBooksUrl(input: string): Promise<BooksPicture> {
    const url = booksUrlFrom(input);
    if (this.config.booksUrl !== null && url !== this.config.booksUrl) {
      throw new Error(`this connector was started with the books at ${this.config.booksUrl} (--books or LEDGERWIRE_BOOKS_URL); change it there`);
    }
    await this.books.retarget(url);
    this.settings.saveBooksUrl(url);
    this.booksUrlValue = url;
    this.tallyProgram.reset();
    this.log.info(`the books are now looked for at ${url}`);
    const picture = await this.presence.check();
    this.notify();
    return picture;
  }

  /** The relay's address given before enrolment (the installer's /RELAY), shown on the enrolment page. */
  rememberRelayUrl(input: string): string {
    const url = relayBaseUrl(input);
    if (this.settings.enrolment()) throw new Error(`this connector is enrolled with the relay at ${this.settings.relayUrl() ?? ''}; enrol it again to change relays`);
    this.settings.saveRelayUrl(url);
    this.notify();
    return url;
  }

  get dataDir(): string {
    return this.config.dataDir;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    // The relay hears the books' state in hello, so the relay is dialled once the books were asked
    // (their first probe, the first request to leave): a restart must not announce "books stopped" for
    // the moment before anyone looked. The probe ends within its own timeout, answered or not.
    const firstProbe = this.presence.check();
    this.presence.start();
    void firstProbe.then(() => {
      if (!this.link) this.connectRelay();
    });
    void this.runner.wake();
    const tick = () => {
      this.jobs.prune(new Date(Date.now() - JOB_RETENTION_MS));
      void this.sync().finally(() => {
        if (!this.stopped) this.syncTimer = setTimeout(tick, this.config.syncIntervalMs);
      });
    };
    this.syncTimer = setTimeout(tick, this.config.syncIntervalMs);
    this.log.info(`connector started (data in ${this.config.dataDir}, books at ${this.booksUrl})`);
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.started) this.log.info('stopping: an import under way gets a moment to be answered; a sync under way carries on from its last confirmed point at the next start');
    clearTimeout(this.syncTimer);
    this.presence.stop();
    // An import under way gets a moment to be answered. Whatever still waits on the books after that is
    // cut: a cut import stays 'importing' and is looked up by REMOTEID on the next start; a sync resumes
    // from its last confirmed cursor. Stopping never waits on books that hang behind a dialog.
    await settledWithin(this.runner.stop(), STOP_GRACE_MS);
    // From here a sync under way fails because of this stop, not the books: it logs it so.
    this.engine.stop();
    this.books.close();
    this.channel.stop();
    await this.runner.stop();
    await this.syncing?.catch(() => undefined);
    await this.link?.stop();
    this.books.close();
    this.jobs.unmarkUnsent();
    this.jobs.flushAcknowledged();
    this.lastStatus = this.status();
    this.db.close();
  }

  onStatusChange(listener: (status: ConnectorStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Like onStatusChange, without building the status for the listener (it reads status() when it needs it). */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** One sync pass now (joining a pass under way). */
  sync(force: { deletions?: boolean } = {}): Promise<CompanySyncResult[]> {
    // Without the relay nothing can be confirmed; the next welcome starts a pass.
    if (this.stopped || this.link?.state !== 'online') return this.syncing ?? Promise.resolve([]);
    this.syncing ??= this.engine
      .runPass(force)
      .catch((error: unknown) => {
        this.log.warn(`sync could not start: ${errorText(error)}`);
        this.presence.observe(null, error);
        return [];
      })
      .finally(() => {
        this.syncing = undefined;
        this.syncProgress = null;
        this.notify();
      });
    return this.syncing;
  }

  /** Resolves once every job handed over so far has been run (or must wait for the books). */
  runJobs(): Promise<void> {
    return this.runner.wake();
  }

  async enrol(input: { relayUrl: string; token: string; machineName: string; booksUrl?: string }): Promise<{ connectorId: string }> {
    const result = await enrolWithRelay({ ...input, version: CONNECTOR_VERSION });
    this.settings.saveEnrolment({ ...result, machineName: input.machineName });
    if (input.booksUrl) this.settings.saveBooksUrl(input.booksUrl);
    this.log.info(`enrolled with the relay at ${result.relayUrl} as ${result.connectorId}`);
    if (this.started) {
      await this.link?.stop();
      this.link = undefined;
      this.connectRelay();
    }
    this.notify();
    return { connectorId: result.connectorId };
  }

  /** The customer's companies at the relay (to pair one to a books company). */
  customerCompanies(): Promise<ConnectorCompanyOut[]> {
    return this.relayApi().companies();
  }

  /** Companies open in the books right now (probes them). */
  async booksCompanies(): Promise<readonly BooksCompany[]> {
    const picture = await this.presence.check();
    return picture.companies;
  }

  /** Pairs a service company to a books company (name or GUID) open in the books. */
  async pair(companyId: number, booksCompany: string): Promise<ConnectorCompanyOut> {
    const relay = this.relayApi(); // not enrolled: say so before asking the books anything
    const open = await this.booksCompanies();
    const company = findOpenCompany(open, booksCompany, booksCompany);
    if (!company) {
      const names = open.map((c) => `"${c.name}"`).join(', ') || 'none';
      throw new Error(`no company "${booksCompany}" is open in the books (open: ${names}); open it in TallyPrime first`);
    }
    this.pairings.request({ companyId, booksCompanyGuid: company.guid, booksCompanyName: company.name });
    let paired: ConnectorCompanyOut;
    try {
      paired = await relay.pair({ company_id: companyId, books_company_guid: company.guid, books_company_name: company.name });
    } catch (error) {
      // Refused (not this customer's company, unknown id): nothing to wait for. Unreachable: keep waiting.
      if (error instanceof RelayApiError && error.status !== null && error.status < 500) this.pairings.withdraw(companyId);
      throw error;
    }
    this.pairings.replaceConfirmed([
      ...this.pairings.list().filter((p) => p.confirmed && p.companyId !== companyId),
      { companyId, booksCompanyGuid: company.guid, booksCompanyName: company.name },
    ]);
    this.log.info(`paired company ${companyId} with "${company.name}" in the books`);
    this.notify();
    if (this.started) void this.sync();
    return paired;
  }

  /** Unpairs a service company from this machine: its jobs and sync stop here until it is paired again. */
  async unpair(companyId: number): Promise<void> {
    await this.relayApi().unpair(companyId);
    this.pairings.replaceConfirmed(this.pairings.list().filter((p) => p.confirmed && p.companyId !== companyId));
    this.pairings.withdraw(companyId);
    this.log.info(`unpaired company ${companyId} from this computer`);
    this.notify();
  }

  recentJobs(limit = 50): JobView[] {
    const picture = this.presence.picture;
    const situation = { booksRunning: picture.running, openCompanies: picture.companies, runnerWaiting: this.runner.waitingReason, relayOnline: this.link?.state === 'online' };
    return this.jobs.recent(limit).map((job) => explainJob(job, job.xml, situation));
  }

  recentLog(limit = 200): LogEntry[] {
    return this.logStore.recent(limit);
  }

  status(): ConnectorStatus {
    if (this.lastStatus) return this.lastStatus;
    const enrolment = this.settings.enrolment();
    // A service that was never started (a CLI command) has no link: say so rather than "offline".
    const state = !enrolment ? 'not_enrolled' : !this.started || this.stopped ? 'stopped' : (this.link?.state ?? 'connecting');
    const lastError = this.link?.lastError ?? null;
    const picture = this.presence.picture;
    const pairings = this.pairings.list().map((pairing) => ({ pairing, run: this.syncState.run(pairing.companyId) }));
    const syncingCompany = this.syncing !== undefined ? (this.syncProgress?.companyId ?? null) : null;
    return {
      version: CONNECTOR_VERSION,
      relay: {
        state,
        url: enrolment?.relayUrl ?? this.settings.relayUrl() ?? null,
        connectorId: enrolment?.connectorId ?? null,
        machineName: enrolment?.machineName ?? null,
        lastError,
        description: describeRelay(state, enrolment?.relayUrl ?? null, lastError),
      },
      books: {
        url: this.booksUrl,
        running: picture.running,
        program: this.tallyProgram.state,
        attention: booksAttention(picture, this.booksUrl, this.tallyProgram.state),
        companies: picture.companies.map((c) => ({ guid: c.guid, name: c.name })),
        checkedAt: picture.checkedAt,
        requests: this.books.requestCounts(),
        description: describeBooks(picture, this.runner.waitingReason, this.booksUrl, this.tallyProgram.state),
      },
      pairings: pairings.map(({ pairing, run }) => describePairing(pairing, picture, run, new Date(), syncingCompany === pairing.companyId)),
      queue: describeQueue(this.jobs.counts()),
      sync: describeSync(this.syncing !== undefined, this.syncProgress, latest(pairings.map(({ run }) => run.lastSyncAt)), new Date(), {
        expectedVouchers: this.expectedVouchers(),
        failures: pairings.flatMap(({ pairing, run }) => (run.lastError && pairing.confirmed ? [{ companyId: pairing.companyId, error: run.lastError }] : [])),
      }),
    };
  }

  /** Vouchers the pass under way expects to send for the company it is on (for a bar that moves by count). */
  private expectedVouchers(): number | null {
    const progress = this.syncProgress;
    if (this.syncing === undefined || progress?.phase !== 'vouchers') return null;
    const pairing = this.pairings.list().find((p) => p.companyId === progress.companyId);
    if (!pairing) return null;
    const company = findOpenCompany(this.presence.picture.companies, pairing.booksCompanyGuid, pairing.booksCompanyName);
    return expectedVoucherChanges(company, this.syncState.cursor(progress.companyId, 'vouchers'));
  }

  private relayApi(): RelayApi {
    const enrolment = this.settings.enrolment();
    if (!enrolment) throw new Error('this connector is not enrolled yet: enrol it with the customer token first');
    return new RelayApi(enrolment.relayUrl, enrolment.credential);
  }

  private connectRelay(): void {
    if (this.stopped) return; // stopped before the first probe ended: the state is closed
    const enrolment = this.settings.enrolment();
    if (!enrolment) return;
    const link = new RelayLink({
      relayUrl: enrolment.relayUrl,
      credential: enrolment.credential,
      connectorVersion: CONNECTOR_VERSION,
      books: () => this.presence.booksState(),
      outbox: () => {
        const outcomes = this.jobs.outbox().flatMap((job) => (job.outcome ? [{ job_id: job.jobId, outcome: job.outcome }] : [])).slice(0, 1000);
        this.sentInHello = new Set(outcomes.map((o) => o.job_id));
        return outcomes;
      },
      log: this.log,
      reconnectBaseMs: this.config.reconnectBaseMs,
      reconnectCapMs: this.config.reconnectCapMs,
    });
    link.onWelcome((welcome) => this.welcomed(welcome));
    link.onMessage((message) => this.handleMessage(message));
    link.onStateChange((state) => {
      if (state !== 'online') this.channel.linkDown();
      this.notify();
    });
    this.link = link;
    link.start();
  }

  /** A (re)connected session: adopt the relay's pairings and cursors, re-report unacknowledged results. */
  private welcomed(welcome: WelcomeMessage): void {
    this.pairings.replaceConfirmed(
      welcome.companies.map((c) => ({ companyId: c.company_id, booksCompanyGuid: c.books_company_guid, booksCompanyName: c.books_company_name })),
    );
    for (const cursor of welcome.sync_cursors) {
      if (this.syncState.cursor(cursor.company_id, cursor.kind) !== cursor.cursor) this.syncState.saveCursor(cursor.company_id, cursor.kind, cursor.cursor);
    }
    // The books may have changed between hello and welcome (a presence sent then was not delivered).
    this.link?.send({ type: 'presence', v: CONNECTOR_PROTOCOL_VERSION, books: this.presence.booksState() });
    // Hello carried the outbox (up to 1000); the relay acknowledges those right after welcome. Anything
    // beyond, or settled since, goes as job.result (idempotent at the relay).
    const outbox = this.jobs.outbox();
    if (outbox.length > 0) this.log.info(`re-reporting ${outbox.length} job results the relay has not acknowledged`);
    this.exchange.report(outbox.filter((job) => !this.sentInHello.has(job.jobId)));
    void this.runner.wake();
    void this.sync();
    this.notify();
  }

  private handleMessage(message: ServerMessage): void {
    switch (message.type) {
      case 'job.assign':
        return this.exchange.receive([message.job]);
      case 'jobs.assign':
        return this.exchange.receive(message.jobs);
      case 'job.result.ack':
        return this.exchange.outcomesAcknowledged([message.job_id]);
      case 'jobs.result.ack':
        return this.exchange.outcomesAcknowledged(message.acks.map((ack) => ack.job_id));
      case 'sync.ack':
        this.channel.handleAck(message);
        return;
      case 'pairings':
        this.pairings.replaceConfirmed(
          message.companies.map((c) => ({ companyId: c.company_id, booksCompanyGuid: c.books_company_guid, booksCompanyName: c.books_company_name })),
        );
        this.notify();
        void this.sync();
        return;
      case 'error':
        this.channel.handleError(message);
        return;
      default:
        return;
    }
  }


  /** While the books refuse connections, whether TallyPrime runs says which of two fixes the page shows. */
  private askWhyBooksDoNotAnswer(running: boolean | null): void {
    if (running !== false) {
      this.tallyProgram.reset();
      return;
    }
    void this.tallyProgram.refresh().then((changed) => {
      if (changed) this.notify();
    });
  }

  private booksChanged(): void {
    this.link?.send({ type: 'presence', v: CONNECTOR_PROTOCOL_VERSION, books: this.presence.booksState() });
    if (this.presence.picture.running) void this.runner.wake();
    this.notify();
  }

  /** Tells listeners the status changed; changes within one turn of the event loop are told once. */
  private notify(): void {
    if ((this.listeners.size === 0 && this.changeListeners.size === 0) || this.stopped || this.notifyPending) return;
    this.notifyPending = true;
    setImmediate(() => {
      this.notifyPending = false;
      if (this.stopped) return;
      for (const listener of this.changeListeners) listener();
      if (this.listeners.size === 0) return;
      const status = this.status();
      for (const listener of this.listeners) listener(status);
    });
  }
}

/** Waits for `work`, or `ms` at most. */
async function settledWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([work.catch(() => undefined), elapsed]);
  clearTimeout(timer);
}

/** The latest of some ISO times (they sort as text), or null when there is none. */
function latest(times: readonly (string | null)[]): string | null {
  return times.reduce<string | null>((last, at) => (at !== null && (last === null || at > last) ? at : last), null);
}
