// The connector as a running program: its local state under a run lock, the core service with every
// loop, the local page, the log files and the status file other processes read. The CLI's `run`, the
// Windows launcher and the Electron shell all start it through startConnectorService.
import { loadConnectorConfig, type ConfigOverrides } from '../core/config/load-config.js';
import { ConnectorService } from '../core/service/connector-service.js';
import type { ConnectorStatus } from '../core/service/connector-status.js';
import { acquireRunLock } from '../core/service/run-lock.js';
import { removeStatusFile, writeStatusFile } from '../core/service/status-file.js';
import { openLogFiles } from '../core/support/log-files.js';
import type { LogRecord } from '../core/support/logger.js';
import { startUiServer } from '../ui/ui-server.js';

export type StartConnectorOptions = Readonly<{
  dataDir: string;
  booksUrl?: string;
  /** Port of the local UI on 127.0.0.1; random when left out. */
  uiPort?: number;
  /** A folder with the local page pre-built (the Windows and Electron packages); bundled in memory at start when left out. */
  uiPageDir?: string;
  /** Receives every log record (the service also keeps them for the UI, and in logs\connector.log). */
  log?: (record: LogRecord) => void;
  /** Asked for by the local page's "stop" (the installer's upgrade and uninstall): the starter stops the handle. */
  onStopRequested?: () => void;
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
  const logFiles = openLogFiles(config.dataDir);
  let service: ConnectorService | undefined;
  let ui: Awaited<ReturnType<typeof startUiServer>>;
  try {
    service = new ConnectorService(config, [logFiles.sink, ...(options.log ? [options.log] : [])]);
    ui = await startUiServer(service, {
      port: options.uiPort ?? 0,
      ...(options.uiPageDir === undefined ? {} : { pageDir: options.uiPageDir }),
      ...(options.onStopRequested === undefined ? {} : { onStopRequested: options.onStopRequested }),
    });
  } catch (error) {
    await service?.stop();
    await logFiles.close();
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
        await logFiles.close();
        lock.release();
      })();
      return stopping;
    },
  };
}
