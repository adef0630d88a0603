// `npm run connector -- <command>`: the connector from a terminal. Every command takes --data DIR
// (default: this user's application-data folder) and prints JSON on stdout; log lines go to stderr.
//   enroll --relay URL --token CUSTOMER_TOKEN [--books URL] [--name MACHINE]
//   pair --company-id N --books-company NAME|GUID
//   run            (until SIGTERM / SIGINT, then exits cleanly)
//   status
//   backup DIR     (a consistent copy of the local state while the connector runs; DIR is a data directory)
import os from 'node:os';
import { parseArgs } from 'node:util';
import { ConnectorService, loadConnectorConfig, startConnectorService, type ConnectorConfig } from './core/index.js';
import { readLiveStatusFile } from './core/service/status-file.js';
import { backupLocalDatabase } from './core/state/backup-local-database.js';
import { jsonLineSink } from './core/support/logger.js';

const USAGE = `usage: connector <command> [--data DIR]
  enroll --relay URL --token CUSTOMER_TOKEN [--books URL] [--name MACHINE]
  pair --company-id N --books-company NAME|GUID
  run
  status
  backup DIR`;

class UsageError extends Error {}

const OPTIONS = {
  data: { type: 'string' },
  relay: { type: 'string' },
  token: { type: 'string' },
  books: { type: 'string' },
  name: { type: 'string' },
  'company-id': { type: 'string' },
  'books-company': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Flags = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

function required(flags: Flags, name: keyof Flags): string {
  const value = flags[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required\n${USAGE}`);
  return value;
}

function configFor(flags: Flags): ConnectorConfig {
  return loadConnectorConfig({ dataDir: flags.data, booksUrl: flags.books });
}

/** A service for one command: local state and the books, without the background loops. */
async function withService<T>(flags: Flags, action: (service: ConnectorService) => Promise<T>): Promise<T> {
  const service = new ConnectorService(configFor(flags), [jsonLineSink((line) => process.stderr.write(line))]);
  try {
    return await action(service);
  } finally {
    await service.stop();
  }
}

async function enroll(flags: Flags): Promise<void> {
  const relayUrl = required(flags, 'relay');
  const token = required(flags, 'token');
  const machineName = flags.name?.trim() || os.hostname();
  await withService(flags, async (service) => {
    const { connectorId } = await service.enrol({ relayUrl, token, machineName, ...(flags.books ? { booksUrl: flags.books } : {}) });
    print({ success: true, connector_id: connectorId, machine_name: machineName, relay_url: service.status().relay.url, data_dir: service.dataDir });
  });
}

async function pair(flags: Flags): Promise<void> {
  const companyId = Number(required(flags, 'company-id'));
  if (!Number.isInteger(companyId) || companyId <= 0) throw new UsageError('--company-id must be a whole number above 0 (the service company id)');
  const booksCompany = required(flags, 'books-company');
  await withService(flags, async (service) => {
    const company = await service.pair(companyId, booksCompany);
    print({ success: true, company_id: company.company_id, books_company_guid: company.books_company_guid, books_company_name: company.books_company_name });
  });
}

async function status(flags: Flags): Promise<void> {
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

async function run(flags: Flags): Promise<void> {
  const config = configFor(flags);
  const handle = await startConnectorService({
    dataDir: config.dataDir,
    ...(flags.books ? { booksUrl: flags.books } : {}),
    log: jsonLineSink((line) => process.stderr.write(line)),
  });
  print({ running: true, pid: process.pid, ui_url: handle.uiUrl, data_dir: config.dataDir });
  await new Promise<void>((resolve) => {
    const done = () => resolve();
    process.once('SIGTERM', done);
    process.once('SIGINT', done);
  });
  await handle.stop();
}

async function backup(flags: Flags, positionals: readonly string[]): Promise<void> {
  const [target, ...extra] = positionals;
  if (target === undefined || target.trim() === '' || extra.length > 0) throw new UsageError(`backup takes one directory\n${USAGE}`);
  const config = configFor(flags);
  // DIR is resolved as --data is (from the directory the command was typed in), and is a data directory.
  const targetDir = loadConnectorConfig({ dataDir: target }).dataDir;
  print({ success: true, ...(await backupLocalDatabase(config.dataDir, targetDir, config.sqliteDriver)) });
}

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({ args: [...rest], options: OPTIONS, strict: true, allowPositionals: true });
  const flags = values as Flags;
  if (positionals.length > 0 && command !== 'backup') throw new UsageError(`unexpected argument "${positionals[0]}"\n${USAGE}`);
  if (!command || command === 'help' || flags.help) {
    process.stdout.write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  switch (command) {
    case 'enroll':
      await enroll(flags);
      return 0;
    case 'pair':
      await pair(flags);
      return 0;
    case 'status':
      await status(flags);
      return 0;
    case 'run':
      await run(flags);
      return 0;
    case 'backup':
      await backup(flags, positionals);
      return 0;
    default:
      throw new UsageError(`unknown command "${command}"\n${USAGE}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    print({ success: false, error: message.split('\n')[0] });
    process.stderr.write(`${message}\n`);
    process.exitCode = error instanceof UsageError || (error instanceof TypeError && 'code' in error) ? 2 : 1;
  },
);
