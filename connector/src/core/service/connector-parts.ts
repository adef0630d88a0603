// The connector's parts, made and wired once: the local state and its stores, the books client and what
// watches the books, the job runner and the job exchange, the sync engine and its channel, and the rules
// between them (books that answer again wake the waiting jobs; a settled job is reported; a sync that
// lists companies tells presence). The service (connector-service.ts) drives the parts; the relay
// conversation (relay-conversation.ts) carries what they send and receive.
import type { ClientMessage } from '@ledgerwire/shared';
import { BooksClient } from '../books/books-client.js';
import { BooksOperations } from '../books/books-operations.js';
import { TallyProgramWatch } from '../books/tally-program.js';
import { DEFAULT_BOOKS_URL, type ConnectorConfig } from '../config/load-config.js';
import { JobRunner } from '../jobs/job-runner.js';
import { PresenceMonitor, type BooksPicture } from '../presence/presence-monitor.js';
import { JobStore } from '../state/job-store.js';
import { openLocalDatabase, type LocalDatabase } from '../state/local-database.js';
import { LogStore } from '../state/log-store.js';
import { PairingStore } from '../state/pairing-store.js';
import { SettingsStore } from '../state/settings-store.js';
import { SyncStateStore } from '../state/sync-state-store.js';
import { createLogger, type Logger, type LogSink } from '../support/logger.js';
import { SyncChannel } from '../sync/sync-channel.js';
import { SyncEngine, type SyncProgress } from '../sync/sync-engine.js';
import { JobExchange } from './job-exchange.js';

export type ConnectorParts = Readonly<{
  db: LocalDatabase;
  settings: SettingsStore;
  pairings: PairingStore;
  jobs: JobStore;
  syncState: SyncStateStore;
  logStore: LogStore;
  log: Logger;
  books: BooksClient;
  operations: BooksOperations;
  presence: PresenceMonitor;
  /** Asked only while the books do not answer: TallyPrime closed, or open with its XML port off. */
  tallyProgram: TallyProgramWatch;
  runner: JobRunner;
  exchange: JobExchange;
  channel: SyncChannel;
  engine: SyncEngine;
}>;

/** What the parts need from the service around them. */
export type PartsHooks = Readonly<{
  /** Something a person sees changed. */
  changed(): void;
  /** Sends to the relay when the link is up; false when it is not. */
  send(message: ClientMessage): boolean;
  /** The relay takes job runs (one message per run) rather than one message per job. */
  jobRuns(): boolean;
  /** The service is running (not stopping or stopped): the job exchange may touch the state. */
  running(): boolean;
  /** The books started, stopped, or opened other companies: the relay hears presence. */
  booksChanged(picture: BooksPicture): void;
  syncProgress(progress: SyncProgress | null): void;
}>;

export function assembleConnectorParts(config: ConnectorConfig, sinks: readonly LogSink[], hooks: PartsHooks): ConnectorParts {
  const db = openLocalDatabase(config.dataDir, config.sqliteDriver);
  const settings = new SettingsStore(db);
  const pairings = new PairingStore(db);
  const jobs = new JobStore(db);
  jobs.onAcknowledgedWritten = () => hooks.changed();
  const syncState = new SyncStateStore(db);
  const logStore = new LogStore(db);
  const keep: LogSink = (record) => {
    if (record.level !== 'debug') logStore.append(record.level, record.message);
  };
  const log = createLogger([keep, ...sinks], config.logLevel === 'silent' ? 'info' : config.logLevel);
  if (config.booksUrl) settings.saveBooksUrl(config.booksUrl);
  const books = new BooksClient({ url: config.booksUrl ?? settings.booksUrl() ?? DEFAULT_BOOKS_URL, timeoutMs: config.booksTimeoutMs });
  const operations = new BooksOperations(books);
  const tallyProgram = new TallyProgramWatch({ minGapMs: Math.max(config.presenceIntervalMs, 5_000) });

  // Presence, the runner and the exchange call one another; each is set here before any of them runs.
  const late = {} as { runner: JobRunner; exchange: JobExchange };
  const presence = new PresenceMonitor({
    listCompanies: () => operations.listCompanies('presence'),
    isBusy: () => books.busy,
    intervalMs: config.presenceIntervalMs,
    stopConfirmMs: config.booksStopConfirmMs,
    log,
    onChange: (picture) => {
      hooks.booksChanged(picture);
      if (picture.running) void late.runner.wake();
      hooks.changed();
    },
    onProbe: (picture) => {
      askWhyBooksDoNotAnswer(tallyProgram, picture.running, hooks.changed);
      // Only books that answered properly: after a timeout, another import would queue behind the stuck one.
      const counts = jobs.counts();
      if (picture.running) late.runner.companiesOpen(picture.companies);
      if (picture.running && !picture.problem && counts.waiting + counts.importing > 0) void late.runner.wake();
      hooks.changed();
    },
  });
  const runner = new JobRunner({
    jobs,
    books: operations,
    log,
    batchSize: config.importBatch,
    onSettled: (settled) => {
      late.exchange.report(settled);
      hooks.changed();
    },
    onBooksUnavailable: () => void presence.check(),
  });
  const exchange = new JobExchange({ jobs, runner, send: hooks.send, jobRuns: hooks.jobRuns, open: () => db.isOpen && hooks.running(), changed: hooks.changed });
  Object.assign(late, { runner, exchange });
  const channel = new SyncChannel(hooks.send);
  const engine = new SyncEngine({
    books: operations,
    state: syncState,
    pairings,
    channel,
    log,
    windowVouchers: config.syncWindowVouchers,
    batchItems: config.syncBatchItems,
    deletionCheckEvery: config.deletionCheckEvery,
    onProgress: hooks.syncProgress,
    onCompanies: (companies) => presence.observe(companies),
  });
  return { db, settings, pairings, jobs, syncState, logStore, log, books, operations, presence, tallyProgram, runner, exchange, channel, engine };
}

/** While the books refuse connections, whether TallyPrime runs says which of two fixes the page shows. */
function askWhyBooksDoNotAnswer(watch: TallyProgramWatch, running: boolean | null, changed: () => void): void {
  if (running !== false) {
    watch.reset();
    return;
  }
  void watch.refresh().then((didChange) => {
    if (didChange) changed();
  });
}
