// A first sync of a large book (100,000 vouchers by default) through a real connector process, with
// its peak memory (VmHWM) against the 250 MB budget; then a second sync with nothing changed, which
// must cost one probe request. The seeded books are cached in the temp directory between runs.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '@ledgerwire/emulator';
import { ConnectorService, loadConnectorConfig } from '@ledgerwire/connector';
import { peakRssMb, startBenchRelay, tempDir, waitFor } from './connector-bench-support.js';

const VOUCHERS = Number(process.env.BENCH_SYNC_VOUCHERS ?? 100_000);
const RSS_BUDGET_MB = 250;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Demo books with VOUCHERS load vouchers, seeded once and copied for each run. */
async function seededBooks(): Promise<string> {
  const cache = path.join(os.tmpdir(), `ledgerwire-bench-books-${VOUCHERS}`);
  if (!fs.existsSync(path.join(cache, '.complete'))) {
    const building = tempDir('bench-seed-');
    console.log(`  seeding ${VOUCHERS} vouchers into the emulator (cached in ${cache} for later runs)…`);
    const emulator = await startEmulator({ port: 0, controlPort: 0, dataDir: building, seed: 'demo', vouchers: VOUCHERS });
    await emulator.close();
    fs.rmSync(cache, { recursive: true, force: true });
    fs.cpSync(building, cache, { recursive: true });
    fs.writeFileSync(path.join(cache, '.complete'), '');
    fs.rmSync(building, { recursive: true, force: true });
  }
  const copy = tempDir('bench-books-');
  fs.cpSync(cache, copy, { recursive: true });
  return copy;
}

type LiveStatus = {
  uiUrl: string;
  writtenAt: string;
  status: { books: { requests: Record<string, number> }; sync: { running: boolean }; pairings: { lastSyncAt: string | null }[] };
};

function readStatus(dataDir: string): LiveStatus | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, 'status.json'), 'utf8')) as LiveStatus;
  } catch {
    return undefined;
  }
}

export type SyncResult = Readonly<{
  vouchers: number;
  seconds: number;
  peakRssMb: number;
  rssRatio: number;
  secondSyncRequests: number;
  secondSyncKinds: string;
}>;

export function printSync(result: SyncResult): void {
  console.log(`  first sync: ${result.vouchers} vouchers in ${result.seconds.toFixed(1)} s (${(result.vouchers / result.seconds).toFixed(0)} vouchers/s)`);
  console.log(`  connector peak RSS: ${result.peakRssMb.toFixed(0)} MB vs budget ${RSS_BUDGET_MB} MB → ratio ${result.rssRatio.toFixed(2)} (target ≤ 1.00)`);
  console.log(`  second sync, nothing changed: ${result.secondSyncRequests} request(s) to the books (${result.secondSyncKinds}) vs 1 probe → ratio ${result.secondSyncRequests.toFixed(2)} (target 1.00)`);
}

export async function run(): Promise<void> {
  console.log(`connector-sync: first sync of ${VOUCHERS} vouchers, then a sync with nothing changed`);
  printSync(await measureSync());
}

export async function measureSync(): Promise<SyncResult> {
  const booksDir = await seededBooks();
  const books = await startEmulator({ port: 0, controlPort: 0, dataDir: booksDir, seed: 'demo' });
  const relay = await startBenchRelay();
  const dataDir = tempDir('bench-connector-');
  const setup = new ConnectorService(loadConnectorConfig({ dataDir, booksUrl: books.xmlUrl, logLevel: 'silent' }));
  const companies = (await (await fetch(`${books.controlUrl}/companies`)).json()) as { name: string; vouchers: number }[];
  const company = companies[0] as { name: string; vouchers: number };
  await setup.enrol({ relayUrl: relay.baseUrl, token: relay.customerToken, machineName: 'bench-sync-pc' });
  await setup.pair(relay.companyId, company.name);
  await setup.stop();

  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'connector/src/cli.ts'), 'run', '--data', dataDir], {
    cwd: root,
    env: { ...process.env, LEDGERWIRE_LOG_LEVEL: 'warn', LEDGERWIRE_PRESENCE_INTERVAL_MS: '3600000', LEDGERWIRE_SYNC_INTERVAL_MS: '3600000' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  try {
    const started = performance.now();
    let peak = 0;
    const total = await waitFor(async () => {
      peak = Math.max(peak, peakRssMb(child.pid ?? 0) ?? 0);
      const list = await relay.api('GET', `/api/v1/pulled-vouchers?company_id=${relay.companyId}&limit=1`);
      return list.total >= company.vouchers ? (list.total as number) : undefined;
    }, 'the first sync to reach the relay', 3_600_000, 1000);
    const seconds = (performance.now() - started) / 1000;
    peak = Math.max(peak, peakRssMb(child.pid ?? 0) ?? 0);

    // The pass goes on after the last voucher (reports); measure only once it has finished.
    const live = await waitFor(() => {
      const s = readStatus(dataDir);
      return s && !s.status.sync.running && s.status.pairings[0]?.lastSyncAt ? s : undefined;
    }, 'the first sync pass to finish', 600_000, 200);
    const before = { ...live.status.books.requests };
    const ui = new URL(live.uiUrl);
    const response = await fetch(new URL('/api/sync-now', ui), { method: 'POST', headers: { 'x-ui-token': ui.searchParams.get('token') ?? '', 'content-type': 'application/json' }, body: '{}' });
    if (!response.ok) throw new Error(`sync-now answered ${response.status}`);
    const answered = new Date().toISOString();
    const after = await waitFor(() => {
      const s = readStatus(dataDir);
      return s && s.writtenAt > answered ? s : undefined;
    }, 'the status after the second sync', 60_000, 100);
    const delta = Object.entries(after.status.books.requests)
      .map(([k, v]) => [k, v - (before[k] ?? 0)] as const)
      .filter(([k, v]) => v > 0 && k !== 'presence');
    const requests = delta.reduce((n, [, v]) => n + v, 0);

    return {
      vouchers: total,
      seconds,
      peakRssMb: peak,
      rssRatio: peak / RSS_BUDGET_MB,
      secondSyncRequests: requests,
      secondSyncKinds: delta.map(([k, v]) => `${k}:${v}`).join(', ') || 'none',
    };
  } finally {
    child.kill('SIGTERM');
    await exited;
    await relay.close();
    await books.close();
    fs.rmSync(booksDir, { recursive: true, force: true });
  }
}
