// The connector as its owner drives it — the CLI, the local page, the Electron shell, the tests: start
// and stop, enrol, pair and unpair, sync now, say where TallyPrime is, and the status in words. A thin
// face over the parts (connector-parts.ts, made and wired there) and the relay conversation
// (relay-conversation.ts); startConnectorService (../../app) runs it with its page and files.
import type { ConnectorCompanyOut } from '@ledgerwire/shared';
import { booksUrlFrom, type ConnectorConfig } from '../config/load-config.js';
import type { BooksClient } from '../books/books-client.js';
import type { BooksPicture } from '../presence/presence-monitor.js';
import { findOpenCompany, type BooksCompany } from '../presence/books-company.js';
import { enrolWithRelay } from '../relay/enrolment.js';
import { RelayApi, RelayApiError } from '../relay/relay-api.js';
import { relayBaseUrl } from '../relay/relay-urls.js';
import type { JobStore } from '../state/job-store.js';
import type { LocalDatabase } from '../state/local-database.js';
import type { LogEntry, LogStore } from '../state/log-store.js';
import type { PairingStore } from '../state/pairing-store.js';
import type { SettingsStore } from '../state/settings-store.js';
import type { SyncStateStore } from '../state/sync-state-store.js';
import { errorText, type Logger, type LogSink } from '../support/logger.js';
import type { CompanySyncResult, SyncProgress } from '../sync/sync-engine.js';
import { CONNECTOR_VERSION } from '../version.js';
import { assembleConnectorParts, type ConnectorParts } from './connector-parts.js';
import type { ConnectorStatus } from './connector-status.js';
import { explainJob, type JobView } from './job-view.js';
import { RelayConversation } from './relay-conversation.js';
import { statusSnapshot } from './status-snapshot.js';

/** Delivered outcomes are kept this long (to answer a late redelivery of the same job from memory). */
const JOB_RETENTION_MS = 14 * 24 * 3600_000;

/** On stop, how long an import already with the books may take to be answered before it is cut. */
const STOP_GRACE_MS = 5_000;

export class ConnectorService {
  private readonly parts: ConnectorParts;
  private readonly relay: RelayConversation;
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

  constructor(private readonly config: ConnectorConfig, sinks: readonly LogSink[] = []) {
    this.parts = assembleConnectorParts(config, sinks, {
      changed: () => this.notify(),
      send: (message) => this.relay.send(message),
      jobRuns: () => this.relay.jobRuns,
      running: () => !this.stopped,
      booksChanged: () => this.relay.presence(),
      syncProgress: (progress) => {
        this.syncProgress = progress;
        this.notify();
      },
    });
    this.relay = new RelayConversation(this.parts, config, { changed: () => this.notify(), sync: () => void this.sync() });
  }

  get db(): LocalDatabase { return this.parts.db; }
  get settings(): SettingsStore { return this.parts.settings; }
  get pairings(): PairingStore { return this.parts.pairings; }
  get jobs(): JobStore { return this.parts.jobs; }
  get syncState(): SyncStateStore { return this.parts.syncState; }
  get logStore(): LogStore { return this.parts.logStore; }
  get log(): Logger { return this.parts.log; }
  get books(): BooksClient { return this.parts.books; }
  get booksUrl(): string { return this.parts.books.url; }
  get dataDir(): string { return this.config.dataDir; }

  start(): void {
    if (this.started) return;
    this.started = true;
    const { presence, runner, jobs, log } = this.parts;
    // The relay hears the books' state in hello, so the relay is dialled once the books were asked
    // (their first probe, the first request to leave): a restart must not announce "books stopped" for
    // the moment before anyone looked. The probe ends within its own timeout, answered or not.
    const firstProbe = presence.check();
    presence.start();
    void firstProbe.then(() => {
      // Stopped before the first probe ended: the state is closed.
      if (!this.relay.dialled && !this.stopped) this.relay.connect();
    });
    void runner.wake();
    const tick = () => {
      jobs.prune(new Date(Date.now() - JOB_RETENTION_MS));
      void this.sync().finally(() => {
        if (!this.stopped) this.syncTimer = setTimeout(tick, this.config.syncIntervalMs);
      });
    };
    this.syncTimer = setTimeout(tick, this.config.syncIntervalMs);
    log.info(`connector started (data in ${this.config.dataDir}, books at ${this.booksUrl})`);
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const { presence, runner, engine, books, channel, jobs, db, log } = this.parts;
    if (this.started) log.info('stopping: an import under way gets a moment to be answered; a sync under way carries on from its last confirmed point at the next start');
    clearTimeout(this.syncTimer);
    presence.stop();
    // An import under way gets a moment to be answered. Whatever still waits on the books after that is
    // cut: a cut import stays 'importing' and is looked up by REMOTEID on the next start; a sync resumes
    // from its last confirmed cursor. Stopping never waits on books that hang behind a dialog.
    await settledWithin(runner.stop(), STOP_GRACE_MS);
    // From here a sync under way fails because of this stop, not the books: it logs it so.
    engine.stop();
    books.close();
    channel.stop();
    await runner.stop();
    await this.syncing?.catch(() => undefined);
    await this.relay.stop();
    books.close();
    jobs.unmarkUnsent();
    jobs.flushAcknowledged();
    this.lastStatus = this.status();
    db.close();
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
    if (this.stopped || this.relay.state !== 'online') return this.syncing ?? Promise.resolve([]);
    this.syncing ??= this.parts.engine
      .runPass(force)
      .catch((error: unknown) => {
        this.log.warn(`sync could not start: ${errorText(error)}`);
        this.parts.presence.observe(null, error);
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
    return this.parts.runner.wake();
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
    await this.parts.books.retarget(url);
    this.settings.saveBooksUrl(url);
    this.parts.tallyProgram.reset();
    this.log.info(`the books are now looked for at ${url}`);
    const picture = await this.parts.presence.check();
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

  async enrol(input: { relayUrl: string; token: string; machineName: string; booksUrl?: string }): Promise<{ connectorId: string }> {
    const result = await enrolWithRelay({ ...input, version: CONNECTOR_VERSION });
    this.settings.saveEnrolment({ ...result, machineName: input.machineName });
    if (input.booksUrl) this.settings.saveBooksUrl(input.booksUrl);
    this.log.info(`enrolled with the relay at ${result.relayUrl} as ${result.connectorId}`);
    if (this.started) await this.relay.redial();
    this.notify();
    return { connectorId: result.connectorId };
  }

  /** The customer's companies at the relay (to pair one to a books company). */
  customerCompanies(): Promise<ConnectorCompanyOut[]> {
    return this.relayApi().companies();
  }

  /** Companies open in the books right now (probes them). */
  async booksCompanies(): Promise<readonly BooksCompany[]> {
    const picture = await this.parts.presence.check();
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
    const picture = this.parts.presence.picture;
    const situation = { booksRunning: picture.running, openCompanies: picture.companies, runnerWaiting: this.parts.runner.waitingReason, relayOnline: this.relay.state === 'online' };
    return this.jobs.recent(limit).map((job) => explainJob(job, job.xml, situation));
  }

  recentLog(limit = 200): LogEntry[] {
    return this.logStore.recent(limit);
  }

  status(): ConnectorStatus {
    if (this.lastStatus) return this.lastStatus;
    // A service that was never started (a CLI command) has no link: say so rather than "offline".
    const linkState = !this.started || this.stopped ? 'stopped' : (this.relay.state ?? 'connecting');
    return statusSnapshot(this.parts, { linkState, lastError: this.relay.lastError, syncing: this.syncing !== undefined, syncProgress: this.syncProgress });
  }

  private relayApi(): RelayApi {
    const enrolment = this.settings.enrolment();
    if (!enrolment) throw new Error('this connector is not enrolled yet: enrol it with the code from your software provider first');
    return new RelayApi(enrolment.relayUrl, enrolment.credential);
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
