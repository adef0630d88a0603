// Running the connector: `run` in the foreground (a terminal) or the background (at logon), `open` for
// the Start-menu entry (start if needed, then the page), `stop` for the installer. One connector runs
// per data folder; a second start opens the first one's page instead of failing.
import { startConnectorService } from '../app/start-connector.js';
import { ConnectorAlreadyRunningError } from '../core/service/run-lock.js';
import { jsonLineSink } from '../core/support/logger.js';
import { openPage } from '../desktop/open-page.js';
import { findRunningConnector, startInBackground, stopRunningConnector } from '../desktop/running-connector.js';
import { configFor, print, type Flags } from './cli-support.js';
import { packagedPageDir } from './page-location.js';

/** Signals that end a run: Ctrl-C, a service manager, a closed console, Ctrl-Break on Windows. */
const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK'] as const;

export async function run(flags: Flags): Promise<void> {
  const config = configFor(flags);
  const pageDir = packagedPageDir();
  let requestStop: () => void = () => undefined;
  const stopRequested = new Promise<void>((resolve) => (requestStop = resolve));
  let handle: Awaited<ReturnType<typeof startConnectorService>>;
  try {
    handle = await startConnectorService({
      dataDir: config.dataDir,
      ...(flags.books ? { booksUrl: flags.books } : {}),
      ...(pageDir ? { uiPageDir: pageDir } : {}),
      // In the background nobody reads stderr: the log files in the data folder have it all.
      ...(flags.background ? {} : { log: jsonLineSink((line) => process.stderr.write(line)) }),
      onStopRequested: () => requestStop(),
    });
  } catch (error) {
    if (!(error instanceof ConnectorAlreadyRunningError) || !(flags.background || flags.open)) throw error;
    const running = findRunningConnector(config.dataDir);
    if (flags.open && running) await openPage(running.uiUrl, { browser: config.browser });
    print({ running: true, already: true, pid: running?.pid ?? error.pid ?? null, ui_url: running?.uiUrl ?? null, data_dir: config.dataDir });
    return;
  }
  print({ running: true, pid: process.pid, ui_url: handle.uiUrl, data_dir: config.dataDir });
  if (flags.open) await openPage(handle.uiUrl, { browser: config.browser }).catch((error: unknown) => handle.service.log.warn(String(error)));
  for (const signal of STOP_SIGNALS) process.once(signal, () => requestStop());
  await stopRequested;
  await handle.stop();
}

export async function open(flags: Flags): Promise<void> {
  const config = configFor(flags);
  const running =
    findRunningConnector(config.dataDir) ?? (await startInBackground({ script: process.argv[1] ?? '', execArgv: process.execArgv, dataDir: config.dataDir }));
  await openPage(running.uiUrl, { browser: config.browser });
  print({ running: true, pid: running.pid, ui_url: running.uiUrl, data_dir: config.dataDir });
}

export async function stop(flags: Flags): Promise<void> {
  const config = configFor(flags);
  const result = await stopRunningConnector(config.dataDir);
  print({ success: true, was_running: result.wasRunning, pid: result.pid, forced: result.forced, data_dir: config.dataDir });
}
