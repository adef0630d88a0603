// The voucher pipeline API → relay → connector → emulator against the emulator's own import rate at the
// same batch size. Every party runs as it is deployed: the emulator (standing in for TallyPrime) and the
// connector each in a process of their own, started from their command lines; the relay in this one.
// Journals are posted through the API while the connector is stopped, so they wait in the relay's queue;
// then the connector starts and drains them. The first WARM_UP of them warm the connector's process up
// (a deployed connector runs for days; a fresh process runs its first thousand jobs through a cold
// JIT), as every emulator process is warmed up before it is timed. The pipeline's time runs from the
// relay recording the last warm-up outcome to the relay recording the last outcome, and its rate counts
// the outcomes recorded in between; the batch size is what the pipeline achieved (objects per import
// request). The emulator alone — a fresh process, the same seed — is then timed
// importing the same vouchers, rendered the same way and sent by the connector's own books client (so
// as UTF-16LE, over a kept connection), one request at a time at that batch size.
// On Linux the emulator gets a core of its own, in every run, and the relay (this process) and the
// connector share the others (see core-placement.ts): in a deployment the relay is on a server
// elsewhere, and the books do not wait for it — so while the pipeline drains the relay's main thread
// runs at a lower priority than the connector (relayBehindConnector).
// Each round also prints how long the emulator's main thread, ready to run, waited for a core (Linux):
// on a machine whose cores the three programs overrun, that wait is where the pipeline's rate goes.
// Beside the ratio, how busy the books were: the emulator's own busy time (its control API, GET /busy)
// sampled when the timed window opens and once the last outcome is in, divided by the wall time between
// (on the emulator's clock, up to its last answer), with the mean idle gap between two of its requests;
// its garbage collection between two requests counts as busy (its own work) and is printed apart;
// and the relay's plus the connector's CPU per voucher against the books'. Issue #23 asks for the books
// busy ≥ 95 % of the wall time, and relay + connector ≤ half the books' CPU per voucher.
// And, as a control, the emulator alone again with one unrelated busy program beside it (computing and
// allocating, no I/O): on a machine of few cores, what keeping one other core busy costs the emulator
// whoever does it — the most a pipeline whose relay and connector keep a core busy could reach there.
// Environment: BENCH_PIPELINE_VOUCHERS (2000), BENCH_PIPELINE_BATCH (the connector's import batch, 200 as its default),
// BENCH_PIPELINE_ROUNDS (5, after a warm-up round).
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { renderVoucherImportBatch } from '@ledgerwire/shared';
import { BooksClient, startConnectorService } from '@ledgerwire/connector';
import { eventually } from '@ledgerwire/test-kit';
import { spawnBusyNeighbour, spawnConnector, spawnEmulator, type ChildHandle, type EmulatorProcess } from './bench-processes.js';
import {
  booksBusy,
  booksUtilisation,
  coreWaitMs,
  cpuSystemMs,
  cpuTimeMs,
  startBenchRelay,
  tempDir,
  type BenchRelay,
} from './connector-bench-support.js';
import { placeOnCores, relayBehindConnector, type CorePlacement } from './core-placement.js';

const TOTAL = Number(process.env.BENCH_PIPELINE_VOUCHERS ?? 2000);
const IMPORT_BATCH = Number(process.env.BENCH_PIPELINE_BATCH ?? 200);
const ROUNDS = Number(process.env.BENCH_PIPELINE_ROUNDS ?? 5);
/** Journals every emulator imports before it is timed (numbered below zero). */
const WARM_UP = 1000;
const COMPANY_NAME = 'Ledgerwire Demo Traders';

function journal(i: number) {
  const amount = 100 + (((i % 900) + 900) % 900);
  return {
    voucher_number: `BJ-${i}`,
    voucher_type: 'Journal',
    party_ledger: 'Office Rent',
    date: '2026-05-15',
    narration: `Bench journal ${i}`,
    ledger_entries: [
      { ledger_name: 'Office Rent', amount, is_debit: true },
      { ledger_name: 'HDFC Bank', amount, is_debit: false },
    ],
  };
}

/**
 * How many of the company's jobs are in these states, read from the relay's own database with an
 * index-only count (the bench polls it while the relay works, so it must cost the relay little).
 */
async function countJobs(relay: BenchRelay, statuses: readonly ('queued' | 'processing' | 'completed' | 'failed')[]): Promise<number> {
  const row = await relay.app.database.db
    .selectFrom('transactions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', relay.companyId)
    .where('status', 'in', statuses)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The timed window: from the relay recording the last warm-up outcome (the first `warmUp` jobs, posted
 * first) to it recording the last outcome, and how many outcomes it recorded after the window opened
 * (one import request's jobs share a timestamp: those settled with the last warm-up job are not counted).
 */
async function timedWindow(relay: BenchRelay, warmUp: number): Promise<{ seconds: number; settled: number }> {
  const rows = await relay.app.database.db
    .selectFrom('transactions')
    .select(['completed_at'])
    .where('company_id', '=', relay.companyId)
    .orderBy('id')
    .execute();
  const at = rows.map((row) => Date.parse(String(row.completed_at)));
  const opened = Math.max(...at.slice(0, warmUp));
  const closed = Math.max(...at);
  return { seconds: (closed - opened) / 1000, settled: at.filter((t) => t > opened).length };
}

type CpuTimes = Readonly<{
  books: number;
  connector: number;
  relay: number;
  booksWaited: number;
  /** Of each party's CPU time, the part spent in the kernel. */
  booksSystem: number;
  connectorSystem: number;
  relaySystem: number;
}>;

/**
 * CPU time used so far (ms) by the emulator's and the connector's processes and by this one (the relay),
 * and the time the emulator's main thread waited for a core while ready to run.
 */
function cpuOf(books: ChildHandle, connector: ChildHandle): CpuTimes {
  const { user, system } = process.cpuUsage();
  const booksPid = books.child.pid ?? 0;
  const connectorPid = connector.child.pid ?? 0;
  return {
    books: cpuTimeMs(booksPid) ?? NaN,
    connector: cpuTimeMs(connectorPid) ?? NaN,
    relay: (user + system) / 1000,
    booksWaited: coreWaitMs(booksPid) ?? NaN,
    booksSystem: cpuSystemMs(booksPid) ?? NaN,
    connectorSystem: cpuSystemMs(connectorPid) ?? NaN,
    relaySystem: system / 1000,
  };
}

type BooksUse = ReturnType<typeof booksUtilisation>;

/** How the relay's priority was set while the pipeline drained, for the output (the same every round). */
let relayPriority = "the relay's priority left as it was";

async function pipelineRate(placement: CorePlacement): Promise<{ rate: number; batch: number; cpuMicros: CpuTimes; books: BooksUse }> {
  const books = await warmEmulator(placement);
  const relay = await startBenchRelay({ CONNECTOR_MAX_IN_FLIGHT: String(IMPORT_BATCH * 3), CONNECTOR_CLAIM_INTERVAL_MS: '1000' });
  const dataDir = tempDir('bench-connector-');
  let connector: Awaited<ReturnType<typeof spawnConnector>> | undefined;
  let priority: ReturnType<typeof relayBehindConnector> | undefined;
  try {
    // Enrol, pair and do the first sync with the connector's core, then stop it: the journals queue.
    const setup = await startConnectorService({ dataDir, booksUrl: books.xmlUrl, config: { logLevel: 'silent', syncIntervalMs: 3_600_000 } });
    await setup.service.enrol({ relayUrl: relay.baseUrl, token: relay.customerToken, machineName: 'bench-pc' });
    await eventually('the connector to connect', () => setup.status().relay.state === 'online' || undefined, { timeoutMs: 60_000, intervalMs: 50 });
    await setup.service.pair(relay.companyId, COMPANY_NAME);
    await setup.syncNow();
    await setup.stop();
    // The warm-up journals first (numbered below the emulator's own warm-up), then the timed ones.
    for (let i = -2 * WARM_UP; i < -WARM_UP; i += 1) await relay.api('POST', `/api/v1/journals?company_id=${relay.companyId}`, journal(i));
    for (let i = 0; i < TOTAL; i += 1) await relay.api('POST', `/api/v1/journals?company_id=${relay.companyId}`, journal(i));
    const early = await countJobs(relay, ['processing', 'completed', 'failed']);
    if (early !== 0) throw new Error(`${early} jobs left the queue before the connector started`);

    connector = await spawnConnector(dataDir, {
      LEDGERWIRE_IMPORT_BATCH: String(IMPORT_BATCH),
      LEDGERWIRE_LOG_LEVEL: 'warn',
      LEDGERWIRE_SYNC_INTERVAL_MS: '3600000',
    });
    priority = relayBehindConnector();
    relayPriority = priority.description;
    // CPU is read when the warm-up's outcomes are in (seen within 5 ms) and at the end.
    await eventually('the warm-up outcomes to reach the relay', async () => ((await countJobs(relay, ['completed', 'failed'])) >= WARM_UP ? true : undefined), { timeoutMs: 600_000, intervalMs: 5 });
    const cpuBefore = cpuOf(books, connector);
    const busyBefore = await booksBusy(books.controlUrl);
    const settledBefore = await countJobs(relay, ['completed', 'failed']);
    const all = WARM_UP + TOTAL;
    await eventually('every outcome to reach the relay', async () => ((await countJobs(relay, ['completed', 'failed'])) >= all ? true : undefined), { timeoutMs: 600_000, intervalMs: 250 });
    const cpuAfter = cpuOf(books, connector);
    const busyAfter = await booksBusy(books.controlUrl);
    const failed = await countJobs(relay, ['failed']);
    if (failed > 0) throw new Error(`${failed} of ${all} journals failed`);
    const window = await timedWindow(relay, WARM_UP);
    const imports = (await eventually("the connector's status to show every outcome delivered", () => importRequests(dataDir, all), { timeoutMs: 60_000, intervalMs: 50, until: (imports) => imports !== undefined })) as number;
    const perVoucher = (key: keyof CpuTimes) => ((cpuAfter[key] - cpuBefore[key]) * 1000) / (all - settledBefore);
    const cpuMicros = Object.fromEntries((Object.keys(cpuAfter) as (keyof CpuTimes)[]).map((key) => [key, perVoucher(key)])) as CpuTimes;
    return { rate: window.settled / window.seconds, batch: all / Math.max(1, imports), cpuMicros, books: booksUtilisation(busyBefore, busyAfter) };
  } finally {
    priority?.restore();
    await connector?.stop();
    await relay.close();
    await books.stop();
  }
}

/** Import requests the connector sent, from its status file once it shows every outcome delivered. */
function importRequests(dataDir: string, total: number): number | undefined {
  try {
    const live = JSON.parse(fs.readFileSync(path.join(dataDir, 'status.json'), 'utf8')) as {
      status: { queue: { done: number; unreported: number }; books: { requests: Record<string, number> } };
    };
    const { queue, books } = live.status;
    return queue.done >= total && queue.unreported === 0 ? (books.requests.import ?? 0) : undefined;
  } catch {
    return undefined; // not written yet, or caught mid-write
  }
}

/** Imports journals `from`…`to` straight into the books, `batch` per request, with the connector's books client. */
async function importDirectly(books: EmulatorProcess, from: number, to: number, batch: number): Promise<void> {
  const client = new BooksClient({ url: books.xmlUrl, timeoutMs: 60_000 });
  try {
    for (let first = from; first < to; first += batch) {
      const vouchers = [];
      for (let i = first; i < Math.min(to, first + batch); i += 1) vouchers.push({ document: journal(i), options: { remoteId: randomUUID() } });
      const answer = await client.request(renderVoucherImportBatch(COMPANY_NAME, vouchers));
      const created = Number(/<CREATED>(\d+)<\/CREATED>/.exec(answer)?.[1] ?? 0);
      if (created !== vouchers.length) throw new Error(`the emulator created ${created} of ${vouchers.length}: ${answer.slice(0, 300)}`);
    }
  } finally {
    client.close();
  }
}

/**
 * A fresh emulator process, warmed up: it imports WARM_UP journals before anything is timed, so that
 * neither side's figure carries the start of a cold process (its code not yet optimised).
 */
async function warmEmulator(placement: CorePlacement): Promise<EmulatorProcess> {
  const books = await spawnEmulator(tempDir('bench-books-'), placement.booksLauncher);
  try {
    await importDirectly(books, -WARM_UP, 0, IMPORT_BATCH);
  } catch (error) {
    await books.stop();
    throw error;
  }
  return books;
}

type EmulatorRun = Readonly<{ rate: number; cpuMicros: number; waitedMicros: number; books: BooksUse }>;

/** The emulator alone, in a fresh warmed-up process, importing the same journals at `batch` per request. */
async function emulatorRate(batch: number, placement: CorePlacement): Promise<EmulatorRun> {
  const books = await warmEmulator(placement);
  const pid = books.child.pid ?? 0;
  try {
    // The journals the pipeline's warm-up imports, untimed, so both emulators hold the same books when timed.
    await importDirectly(books, -2 * WARM_UP, -WARM_UP, batch);
    const cpuBefore = cpuTimeMs(pid) ?? NaN;
    const waitedBefore = coreWaitMs(pid) ?? NaN;
    const busyBefore = await booksBusy(books.controlUrl);
    const started = performance.now();
    await importDirectly(books, 0, TOTAL, batch);
    const rate = TOTAL / ((performance.now() - started) / 1000);
    const use = booksUtilisation(busyBefore, await booksBusy(books.controlUrl));
    const perVoucher = (after: number | undefined, before: number) => (((after ?? NaN) - before) * 1000) / TOTAL;
    return { rate, cpuMicros: perVoucher(cpuTimeMs(pid), cpuBefore), waitedMicros: perVoucher(coreWaitMs(pid), waitedBefore), books: use };
  } finally {
    await books.stop();
  }
}

/** The same, with a busy program that has nothing to do with it running beside it (the control). */
async function emulatorRateBesideBusyProgram(batch: number, placement: CorePlacement): Promise<EmulatorRun> {
  const neighbour = spawnBusyNeighbour();
  try {
    return await emulatorRate(batch, placement);
  } finally {
    await neighbour.stop();
  }
}

export type PipelineRound = Readonly<{
  pipelineRate: number;
  achievedBatch: number;
  /** CPU time per voucher (µs) of each party while the pipeline drained, and the emulator's wait for a core. */
  cpuMicros: CpuTimes;
  /** The books' busy time ÷ wall while the pipeline drained, their requests, and the mean idle gap between two. */
  books: BooksUse;
  /** (relay + connector) CPU per voucher ÷ the books'. */
  cpuShare: number;
  /** The alone emulator's busy time ÷ wall (its client renders the next batch between requests). */
  emulatorBusyShare: number;
  emulatorRate: number;
  emulatorCpuMicros: number;
  /** The alone emulator's main thread's wait for a core (µs per voucher). */
  emulatorWaitedMicros: number;
  ratio: number;
  /** The control: the emulator beside a busy program, against the same alone rate. */
  besideBusyRate: number;
  besideBusyRatio: number;
}>;

export type PipelineResult = Readonly<{
  vouchers: number;
  placement: string;
  rounds: readonly PipelineRound[];
  ratio: number;
  besideBusyRatio: number;
  /** Medians of the rounds' books busy ÷ wall and (relay + connector) ÷ books CPU per voucher. */
  booksBusyShare: number;
  cpuShare: number;
}>;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * A warm-up round, then ROUNDS times: the emulator alone, the pipeline, the emulator alone again, back to
 * back so all three see the same machine; the pipeline is set against the mean of the two alone runs
 * around it (the machine's speed drifts over seconds). The alone runs use the batch the pipeline
 * achieves (the one before it, the previous round's). The ratio is the median of the rounds' ratios.
 */
export async function measurePipeline(): Promise<PipelineResult> {
  const placement = placeOnCores();
  try {
    return { placement: placement.description, ...(await measureRounds(placement)) };
  } finally {
    placement.release();
  }
}

async function measureRounds(placement: CorePlacement): Promise<Omit<PipelineResult, 'placement'>> {
  const rounds: PipelineRound[] = [];
  let batch = IMPORT_BATCH;
  for (let round = -1; round < ROUNDS; round += 1) {
    const before = await emulatorRate(batch, placement);
    const pipeline = await pipelineRate(placement);
    const achieved = Math.max(1, Math.round(pipeline.batch));
    const after = await emulatorRate(achieved, placement);
    const besideBusy = await emulatorRateBesideBusyProgram(achieved, placement);
    // An alone run at another batch size than the pipeline achieved is not comparable: then only the one after.
    const alone = achieved === batch ? [before, after] : [after];
    batch = achieved;
    if (round < 0) continue; // warm-up: the first processes of a run start on a cold machine
    const aloneRate = alone.reduce((sum, a) => sum + a.rate, 0) / alone.length;
    rounds.push({
      pipelineRate: pipeline.rate,
      achievedBatch: pipeline.batch,
      cpuMicros: pipeline.cpuMicros,
      books: pipeline.books,
      cpuShare: (pipeline.cpuMicros.relay + pipeline.cpuMicros.connector) / pipeline.cpuMicros.books,
      emulatorBusyShare: alone.reduce((sum, a) => sum + a.books.busyShare, 0) / alone.length,
      emulatorRate: aloneRate,
      emulatorCpuMicros: alone.reduce((sum, a) => sum + a.cpuMicros, 0) / alone.length,
      emulatorWaitedMicros: alone.reduce((sum, a) => sum + a.waitedMicros, 0) / alone.length,
      ratio: pipeline.rate / aloneRate,
      besideBusyRate: besideBusy.rate,
      besideBusyRatio: besideBusy.rate / aloneRate,
    });
  }
  return {
    vouchers: TOTAL,
    rounds,
    ratio: median(rounds.map((r) => r.ratio)),
    besideBusyRatio: median(rounds.map((r) => r.besideBusyRatio)),
    booksBusyShare: median(rounds.map((r) => r.books.busyShare)),
    cpuShare: median(rounds.map((r) => r.cpuShare)),
  };
}

export function printPipeline(result: PipelineResult): void {
  console.log(`  cores: ${result.placement}; ${relayPriority}`);
  result.rounds.forEach((r, i) => {
    const cpu = r.cpuMicros;
    console.log(`  round ${i + 1}: pipeline API→relay→connector→emulator ${r.pipelineRate.toFixed(0)} vouchers/s (achieved batch ${r.achievedBatch.toFixed(1)})`);
    const inKernel = (total: number, system: number) => `${total.toFixed(0)} µs (${((100 * system) / total).toFixed(0)} % kernel)`;
    console.log(
      `           CPU per voucher: emulator ${inKernel(cpu.books, cpu.booksSystem)}, connector ${inKernel(cpu.connector, cpu.connectorSystem)}, relay ${inKernel(cpu.relay, cpu.relaySystem)} → relay + connector ${r.cpuShare.toFixed(2)} × the books'`,
    );
    const gap = r.books.gapMs;
    console.log(
      `           books busy ${(r.books.busyShare * 100).toFixed(1)} % of wall, of which their own garbage collection between requests ${(r.books.collectorShare * 100).toFixed(1)} % ` +
        `(${r.books.requests} requests on ${r.books.connections} new connections, mean idle gap between two ${gap.toFixed(2)} ms; alone: ${(r.emulatorBusyShare * 100).toFixed(1)} %)`,
    );
    if (Number.isFinite(cpu.booksWaited)) {
      console.log(`           the emulator, ready to run, waited for a core ${cpu.booksWaited.toFixed(0)} µs per voucher (alone: ${r.emulatorWaitedMicros.toFixed(0)} µs; ${os.availableParallelism()} cores for three programs)`);
    }
    console.log(`           emulator alone at batch ${Math.max(1, Math.round(r.achievedBatch))} (mean of before and after): ${r.emulatorRate.toFixed(0)} vouchers/s (${r.emulatorCpuMicros.toFixed(0)} µs CPU per voucher) → ratio ${r.ratio.toFixed(2)}`);
    console.log(`           control: the emulator alone beside one unrelated busy program ${r.besideBusyRate.toFixed(0)} vouchers/s → ${r.besideBusyRatio.toFixed(2)} of alone`);
  });
  console.log(`  ratio pipeline/emulator, median of ${result.rounds.length}: ${result.ratio.toFixed(2)} (target ≥ 0.90)`);
  console.log(`  books busy ÷ wall while the pipeline drains, median: ${(result.booksBusyShare * 100).toFixed(1)} % (target ≥ 95 %)`);
  console.log(`  relay + connector CPU per voucher ÷ the books', median: ${result.cpuShare.toFixed(2)} (target ≤ 0.50)`);
  console.log(`  control, median: a busy program beside the emulator leaves it ${result.besideBusyRatio.toFixed(2)} of its alone rate on this machine (${os.availableParallelism()} cores)`);
}

export async function run(): Promise<void> {
  console.log(`connector-pipeline: ${TOTAL} journals, connector import batch up to ${IMPORT_BATCH}, ${ROUNDS} rounds after a warm-up; emulator and connector in processes of their own`);
  printPipeline(await measurePipeline());
}
