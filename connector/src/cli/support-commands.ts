// Looking at a connector: its status (the running one's, or the stored state's), diagnostics for
// support, and a consistent backup of its local state.
import { loadConnectorConfig } from '../core/config/load-config.js';
import { diagnosticsText, gatherDiagnostics } from '../core/service/diagnostics.js';
import { readLiveStatusFile } from '../core/service/status-file.js';
import { backupLocalDatabase } from '../core/state/backup-local-database.js';
import { logsDir } from '../core/support/log-files.js';
import { callRunningConnector, findRunningConnector } from '../desktop/running-connector.js';
import { configFor, print, UsageError, USAGE, type Flags } from './cli-support.js';
import { withService } from './setup-commands.js';

export async function status(flags: Flags): Promise<void> {
  const config = configFor(flags);
  const live = readLiveStatusFile(config.dataDir);
  if (live) {
    print({ running: true, pid: live.pid, ui_url: live.uiUrl, as_of: live.writtenAt, ...live.status });
    return;
  }
  await withService(flags, async (service) => {
    await service.booksCompanies().catch(() => undefined);
    print({ running: false, ...service.status() });
  });
}

export async function diagnostics(flags: Flags): Promise<void> {
  const config = configFor(flags);
  // The running connector's own diagnostics first: its relay link, its memory, its recent errors.
  const running = findRunningConnector(config.dataDir);
  const answered = running ? await callRunningConnector(running, 'GET', '/api/diagnostics') : undefined;
  const text = (answered?.body as { text?: unknown } | undefined)?.text;
  if (answered?.status === 200 && typeof text === 'string') {
    process.stdout.write(text);
    return;
  }
  const live = readLiveStatusFile(config.dataDir);
  await withService(flags, async (service) => {
    await service.booksCompanies().catch(() => undefined);
    const gathered = await gatherDiagnostics({
      // A running connector's own words about its relay link and queue are the ones that count.
      status: () => live?.status ?? service.status(),
      dataDir: service.dataDir,
      logsDir: logsDir(service.dataDir),
      booksBanner: () => service.books.banner(),
      recentLog: (limit) => service.recentLog(limit),
    });
    process.stdout.write(diagnosticsText(gathered));
  });
}

export async function backup(flags: Flags, positionals: readonly string[]): Promise<void> {
  const [target, ...extra] = positionals;
  if (target === undefined || target.trim() === '' || extra.length > 0) throw new UsageError(`backup takes one directory\n${USAGE}`);
  const config = configFor(flags);
  // DIR is resolved as --data is (from the directory the command was typed in), and is a data directory.
  const targetDir = loadConnectorConfig({ dataDir: target }).dataDir;
  print({ success: true, ...(await backupLocalDatabase(config.dataDir, targetDir, config.sqliteDriver)) });
}
