// A first sync of a large book (100,000 vouchers by default; BENCH_SYNC_VOUCHERS up to 1,000,000) through
// a real connector process, with its peak memory (VmHWM) against the 250 MB budget; then a second sync
// with nothing changed, which must cost one probe request. The books are the emulator in a process of its
// own (it keeps every voucher in memory, ~8 KB each, so a million need a heap far above Node's default);
// the seeded books are cached in the temp directory between runs.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConnectorService, loadConnectorConfig } from '@ledgerwire/connector';
import { eventually } from '@ledgerwire/test-kit';
import { currentRssMb, peakRssMb, startBenchRelay, tempDir } from './connector-bench-support.js';

const VOUCHERS = Number(process.env.BENCH_SYNC_VOUCHERS ?? 100_000);
/** Extra Node flags for the connector process (e.g. `--max-old-space-size=96`: does the heap or do buffers grow?). */
const CONNECTOR_FLAGS = (process.env.BENCH_SYNC_CONNECTOR_FLAGS ?? '').split(' ').filter((flag) => flag !== '');
const RSS_BUDGET_MB = 250;
/** The emulator's heap: its books in memory (~12 MB per thousand vouchers while seeding) and room to answer. */
const EMULATOR_HEAP_MB = Math.max(4096, 2048 + Math.ceil(VOUCHERS / 1000) * 12);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

type BooksProcess = Readonly<{ child: ChildProcess; xmlUrl: string; controlUrl: string; stop(): Promise<void> }>;

/** The emulator's command line in its own process (seeding `vouchers` when its books are empty). */
async function spawnBooks(dataDir: string, vouchers: number): Promise<BooksProcess> {
  const args = ['--port', '0', '--control-port', '0', '--data', dataDir, '--seed', 'demo', ...(vouchers > 0 ? ['--vouchers', String(vouchers)] : [])];
  const child = spawn(process.execPath, [`--max-old-space-size=${EMULATOR_HEAP_MB}`, '--import', 'tsx', path.join(root, 'emulator/src/cli.ts'), ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<RegExpExecArray>((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const match = /XML on (\S+), control API on (\S+),/.exec(seen);
      if (!match) return;
      child.stdout?.off('data', onData);
      child.stdout?.resume();
      resolve(match);
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the emulator exited (code ${code}) before it was ready: ${seen.slice(0, 500)}`)));
  });
  return {
    child,
    xmlUrl: ready[1] as string,
    controlUrl: ready[2] as string,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Demo books with VOUCHERS load vouchers, seeded once and copied for each run. */
async function seededBooks(): Promise<string> {
  const cache = path.join(os.tmpdir(), `ledgerwire-bench-books-${VOUCHERS}`);
  if (!fs.existsSync(path.join(cache, '.complete'))) {
    const building = tempDir('bench-seed-');
    console.log(`  seeding ${VOUCHERS} vouchers into the emulator (cached in ${cache} for later runs)…`);
    const started = performance.now();
    const books = await spawnBooks(building, VOUCHERS);
    const seedPeak = peakRssMb(books.child.pid ?? 0);
    await books.stop();
    console.log(`  seeded in ${((performance.now() - started) / 1000).toFixed(0)} s, emulator peak RSS ${seedPeak?.toFixed(0) ?? '?'} MB`);
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
  status: {
    books: { requests: Record<string, number> };
    sync: { running: boolean; progress?: { phase: string } | null };
    pairings: { lastSyncAt: string | null; lastSyncError: string | null }[];
  };
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
  /** The connector's highest RSS seen in each phase of the first sync (sampled four times a second). */
  phasePeaksMb: Readonly<Record<string, number>>;
  booksLoadSeconds: number;
  booksPeakRssMb: number;
}>;

export function printSync(result: SyncResult): void {
  console.log(`  first sync: ${result.vouchers} vouchers in ${result.seconds.toFixed(1)} s (${(result.vouchers / result.seconds).toFixed(0)} vouchers/s)`);
  console.log(`  books: loaded in ${result.booksLoadSeconds.toFixed(0)} s, emulator peak RSS ${result.booksPeakRssMb.toFixed(0)} MB (not the target)`);
  console.log(`  connector RSS by phase (sampled): ${Object.entries(result.phasePeaksMb).map(([phase, mb]) => `${phase} ${mb.toFixed(0)} MB`).join(', ')}`);
  console.log(`  connector peak RSS: ${result.peakRssMb.toFixed(0)} MB vs budget ${RSS_BUDGET_MB} MB → ratio ${result.rssRatio.toFixed(2)} (target ≤ 1.00)`);
  console.log(`  second sync, nothing changed: ${result.secondSyncRequests} request(s) to the books (${result.secondSyncKinds}) vs 1 probe → ratio ${result.secondSyncRequests.toFixed(2)} (target 1.00)`);
}

export async function run(): Promise<void> {
  console.log(`connector-sync: first sync of ${VOUCHERS} vouchers, then a sync with nothing changed`);
  printSync(await measureSync());
}

export async function measureSync(): Promise<SyncResult> {
  const booksDir = await seededBooks();
  const loading = performance.now();
  const books = await spawnBooks(booksDir, 0);
  const booksLoadSeconds = (performance.now() - loading) / 1000;
  const relay = await startBenchRelay();
  const dataDir = tempDir('bench-connector-');
  const setup = new ConnectorService(loadConnectorConfig({ dataDir, booksUrl: books.xmlUrl, logLevel: 'silent' }));
  const companies = (await (await fetch(`${books.controlUrl}/companies`)).json()) as { name: string; vouchers: number }[];
  const company = companies[0] as { name: string; vouchers: number };
  await setup.enrol({ relayUrl: relay.baseUrl, token: relay.customerToken, machineName: 'bench-sync-pc' });
  await setup.pair(relay.companyId, company.name);
  await setup.stop();

  const child = spawn(process.execPath, [...CONNECTOR_FLAGS, '--import', 'tsx', path.join(root, 'connector/src/cli.ts'), 'run', '--data', dataDir], {
    cwd: root,
    env: { ...process.env, LEDGERWIRE_LOG_LEVEL: 'warn', LEDGERWIRE_PRESENCE_INTERVAL_MS: '3600000', LEDGERWIRE_SYNC_INTERVAL_MS: '3600000' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  try {
    const started = performance.now();
    let peak = 0;
    const phasePeaksMb: Record<string, number> = {};
    // Done with the vouchers when the pass leaves that phase (each window is confirmed by the relay
    // before the next starts). Watched through the connector's status file, not by counting the relay's
    // pulled vouchers, whose count over a million rows would compete with the sync it measures.
    let inVouchers = false;
    let vouchersDone: number | undefined;
    const live = await eventually('the first sync pass to finish', () => {
      peak = Math.max(peak, peakRssMb(child.pid ?? 0) ?? 0);
      const status = readStatus(dataDir);
      const phase = status?.status.sync.progress?.phase ?? 'idle';
      phasePeaksMb[phase] = Math.max(phasePeaksMb[phase] ?? 0, currentRssMb(child.pid ?? 0) ?? 0);
      if (phase === 'vouchers') inVouchers = true;
      else if (inVouchers) vouchersDone ??= performance.now();
      const failed = status && !status.status.sync.running ? status.status.pairings[0]?.lastSyncError : null;
      if (failed) throw new Error(`the first sync failed: ${failed}`);
      return status && !status.status.sync.running && status.status.pairings[0]?.lastSyncAt ? status : undefined;
    }, { timeoutMs: 3_600_000, intervalMs: 250 });
    const seconds = ((vouchersDone ?? performance.now()) - started) / 1000;
    peak = Math.max(peak, peakRssMb(child.pid ?? 0) ?? 0);
    const total = (await relay.api('GET', `/api/v1/pulled-vouchers?company_id=${relay.companyId}&limit=1`)).total as number;
    if (total < company.vouchers) throw new Error(`the first sync ended with ${total} of ${company.vouchers} vouchers at the relay`);
    const before = { ...live.status.books.requests };
    const ui = new URL(live.uiUrl);
    const response = await fetch(new URL('/api/sync-now', ui), { method: 'POST', headers: { 'x-ui-token': ui.searchParams.get('token') ?? '', 'content-type': 'application/json' }, body: '{}' });
    if (!response.ok) throw new Error(`sync-now answered ${response.status}`);
    const answered = new Date().toISOString();
    const after = await eventually('the status after the second sync', () => {
      const s = readStatus(dataDir);
      return s && s.writtenAt > answered ? s : undefined;
    }, { timeoutMs: 60_000, intervalMs: 100 });
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
      phasePeaksMb,
      booksLoadSeconds,
      booksPeakRssMb: peakRssMb(books.child.pid ?? 0) ?? 0,
    };
  } finally {
    child.kill('SIGTERM');
    await exited;
    await relay.close();
    await books.stop();
    fs.rmSync(booksDir, { recursive: true, force: true });
  }
}
