// "Copy diagnostics": what support needs to see about this connector in one paste — its version and
// system, its settings without secrets (never the credential), what it says about the relay, the books
// and the queue, the books' own greeting, and the recent warnings and errors.
import os from 'node:os';
import type { LogEntry } from '../state/log-store.js';
import type { ConnectorStatus } from './connector-status.js';

export type Diagnostics = Readonly<{
  generatedAt: string;
  connector: Readonly<{ version: string; node: string; platform: string; arch: string; system: string; dataDir: string; logsDir: string; pid: number }>;
  settings: Readonly<{ relayUrl: string | null; connectorId: string | null; machineName: string | null; booksUrl: string }>;
  status: ConnectorStatus;
  /** What the books answer at GET / (TallyPrime: "TallyPrime Server is Running"), or why nothing. */
  booksBanner: string;
  /** The running connector's memory (Windows' working set), in MB; null when gathered by another process. */
  memory: Readonly<{ residentMb: number; heapUsedMb: number }> | null;
  recentProblems: readonly LogEntry[];
}>;

export type DiagnosticsSource = Readonly<{
  status(): ConnectorStatus;
  dataDir: string;
  logsDir: string;
  booksBanner(): Promise<string>;
  recentLog(limit: number): LogEntry[];
  /** Only the running connector's own process knows its memory. */
  running?: boolean;
}>;

export async function gatherDiagnostics(source: DiagnosticsSource, now: Date = new Date()): Promise<Diagnostics> {
  const status = source.status();
  return {
    generatedAt: now.toISOString(),
    connector: {
      version: status.version,
      node: process.version,
      platform: process.platform,
      arch: process.arch,
      system: `${os.type()} ${os.release()}`,
      dataDir: source.dataDir,
      logsDir: source.logsDir,
      pid: process.pid,
    },
    settings: { relayUrl: status.relay.url, connectorId: status.relay.connectorId, machineName: status.relay.machineName, booksUrl: status.books.url },
    status,
    booksBanner: await source.booksBanner(),
    memory: source.running ? megabytes(process.memoryUsage()) : null,
    recentProblems: source.recentLog(500).filter((entry) => entry.level === 'warn' || entry.level === 'error').slice(-30),
  };
}

function megabytes(usage: NodeJS.MemoryUsage): { residentMb: number; heapUsedMb: number } {
  return { residentMb: Math.round(usage.rss / 104857.6) / 10, heapUsedMb: Math.round(usage.heapUsed / 104857.6) / 10 };
}

/** The same as text a person can paste into an email or a chat with support. */
export function diagnosticsText(d: Diagnostics): string {
  const { status } = d;
  const lines = [
    `Ledgerwire Connector diagnostics, ${d.generatedAt}`,
    '',
    `Version:        ${d.connector.version} (Node ${d.connector.node}, ${d.connector.platform} ${d.connector.arch}, ${d.connector.system})`,
    `Data folder:    ${d.connector.dataDir}`,
    `Log files:      ${d.connector.logsDir}`,
    `Memory:         ${d.memory ? `${d.memory.residentMb} MB in use (JavaScript heap ${d.memory.heapUsedMb} MB)` : 'not known here (the connector is not running, or did not answer)'}`,
    `Relay:          ${d.settings.relayUrl ?? 'not set'} — ${status.relay.state}`,
    `Connector id:   ${d.settings.connectorId ?? 'not enrolled'}`,
    `Computer name:  ${d.settings.machineName ?? '—'}`,
    `TallyPrime at:  ${d.settings.booksUrl}`,
    `Books answer:   ${d.booksBanner}`,
    '',
    `Relay link:     ${status.relay.description}`,
    `TallyPrime:     ${status.books.description}`,
    `Companies open: ${status.books.companies.map((c) => c.name).join(', ') || 'none'}`,
    `Jobs:           ${status.queue.description}`,
    `Sync:           ${status.sync.description}`,
    ...status.pairings.map((p) => `Company ${p.companyId}:     ${p.description}`),
    '',
    `Recent warnings and errors (${d.recentProblems.length}):`,
    ...(d.recentProblems.length === 0 ? ['  none'] : d.recentProblems.map((entry) => `  ${entry.at} ${entry.level.toUpperCase()} ${entry.message}`)),
  ];
  return `${lines.join('\n')}\n`;
}
