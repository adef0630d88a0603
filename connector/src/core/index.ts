// @ledgerwire/connector: the connector's headless core. The Electron shell, the CLI and the e2e suite
// start it through startConnectorService and watch it through ConnectorStatus; nothing here imports
// electron.
import { loadConnectorConfig, type ConfigOverrides } from './config/load-config.js';
import { ConnectorService } from './service/connector-service.js';
import type { ConnectorStatus } from './service/connector-status.js';
import { acquireRunLock } from './service/run-lock.js';
import { removeStatusFile, writeStatusFile } from './service/status-file.js';
import type { LogRecord } from './support/logger.js';
import { startUiServer } from '../ui/ui-server.js';

export type { ConnectorStatus } from './service/connector-status.js';
export type { LogRecord } from './support/logger.js';
export { defaultDataDir, loadConnectorConfig, DEFAULT_BOOKS_URL, type ConnectorConfig } from './config/load-config.js';
export { ConnectorService } from './service/connector-service.js';
export { BooksClient } from './books/books-client.js';
export { ConnectorAlreadyRunningError } from './service/run-lock.js';
export { CONNECTOR_VERSION } from './version.js';
export { reconnectPolicy, type ReconnectPolicy } from './relay/backoff.js';

export type StartConnectorOptions = Readonly<{
  dataDir: string;
  booksUrl?: string;
  /** Port of the local UI on 127.0.0.1; random when left out. */
  uiPort?: number;
  /** A folder with the local page pre-built by build/bundle-connector.mjs; bundled in memory at start when left out. */
  uiPageDir?: string;
  /** Receives every log record (the service also keeps them for the UI). */
  log?: (record: LogRecord) => void;
  /** Timings and sizes (tests and benchmarks shorten intervals). */
  config?: ConfigOverrides;
}>;

export type ConnectorHandle = Readonly<{
  uiUrl: string;
  status(): ConnectorStatus;
  onStatusChange(listener: (status: ConnectorStatus) => void): () => void;
  syncNow(): Promise<void>;
  stop(): Promise<void>;
  /** The running service, for the CLI and tests (enrol, pair, jobs, log). */
  service: ConnectorService;
}>;

/**
 * Starts the connector on a data directory: its local state, the UI server and every loop. Throws
 * ConnectorAlreadyRunningError, before touching anything, while another connector runs on that directory.
 */
export async function startConnectorService(options: StartConnectorOptions): Promise<ConnectorHandle> {
  const config = loadConnectorConfig({ ...options.config, dataDir: options.dataDir, booksUrl: options.booksUrl });
  const lock = acquireRunLock(config.dataDir, config.sqliteDriver);
  let service: ConnectorService | undefined;
  let ui: Awaited<ReturnType<typeof startUiServer>>;
  try {
    service = new ConnectorService(config, options.log ? [options.log] : []);
    ui = await startUiServer(service, { port: options.uiPort ?? 0, ...(options.uiPageDir === undefined ? {} : { pageDir: options.uiPageDir }) });
  } catch (error) {
    await service?.stop();
    lock.release();
    throw error;
  }
  // The status file lets `connector status` (another process) see this one; written at most every 250 ms.
  let pending: NodeJS.Timeout | undefined;
  const writeStatus = () => {
    pending = undefined;
    try {
      writeStatusFile(config.dataDir, { pid: process.pid, uiUrl: ui.url, writtenAt: new Date().toISOString(), status: service.status() });
    } catch (error) {
      service.log.warn(`could not write the status file: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const unsubscribe = service.onChange(() => {
    pending ??= setTimeout(writeStatus, 250);
  });
  service.start();
  writeStatus();
  let stopping: Promise<void> | undefined;
  return {
    uiUrl: ui.url,
    service,
    status: () => service.status(),
    onStatusChange: (listener) => service.onStatusChange(listener),
    syncNow: async () => {
      await service.sync();
    },
    stop: () => {
      stopping ??= (async () => {
        unsubscribe();
        clearTimeout(pending);
        await ui.close();
        await service.stop();
        removeStatusFile(config.dataDir);
        lock.release();
      })();
      return stopping;
    },
  };
}
