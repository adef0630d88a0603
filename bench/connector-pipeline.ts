// The voucher pipeline API → relay → connector → emulator against the emulator's own import rate at the
// same batch size. Journals are posted through the API; the connector (in-process) imports what the relay
// hands it; the batch size is what the pipeline actually achieved (objects per import request), and the
// emulator alone is timed importing the same vouchers, rendered the same way, at that batch size.
// Environment: BENCH_PIPELINE_VOUCHERS (300), BENCH_PIPELINE_BATCH (the connector's import batch, 50).
import { randomUUID } from 'node:crypto';
import { renderVoucherImportBatch } from '@ledgerwire/shared';
import { startEmulator } from '@ledgerwire/emulator';
import { startConnectorService } from '@ledgerwire/connector';
import { startBenchRelay, tempDir, waitFor } from './connector-bench-support.js';

const TOTAL = Number(process.env.BENCH_PIPELINE_VOUCHERS ?? 300);
const IMPORT_BATCH = Number(process.env.BENCH_PIPELINE_BATCH ?? 50);

function journal(i: number) {
  const amount = 100 + (i % 900);
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
 * Steady-state rate of the whole pipeline: the connector is set up and its first sync done, then it is
 * stopped while TOTAL journals are posted (they queue at the relay), and a fresh start drains them;
 * timed from that start until every outcome is delivered to the relay.
 */
async function pipelineRate(): Promise<{ rate: number; batch: number }> {
  const books = await startEmulator({ port: 0, controlPort: 0, dataDir: tempDir('bench-books-'), seed: 'demo' });
  const relay = await startBenchRelay({ CONNECTOR_MAX_IN_FLIGHT: String(IMPORT_BATCH * 2), CONNECTOR_CLAIM_INTERVAL_MS: '1000' });
  const dataDir = tempDir('bench-connector-');
  const config = { importBatch: IMPORT_BATCH, logLevel: 'silent' as const, syncIntervalMs: 3_600_000, presenceIntervalMs: 60_000 };
  let connector = await startConnectorService({ dataDir, booksUrl: books.xmlUrl, config });
  try {
    await connector.service.enrol({ relayUrl: relay.baseUrl, token: relay.customerToken, machineName: 'bench-pc' });
    await waitFor(() => connector.status().relay.state === 'online' || undefined, 'the connector to connect', 60_000, 50);
    const companies = await connector.service.booksCompanies();
    await connector.service.pair(relay.companyId, companies[0]?.name ?? '');
    await connector.syncNow();
    await connector.stop();
    for (let i = 0; i < TOTAL; i += 1) await relay.api('POST', `/api/v1/journals?company_id=${relay.companyId}`, journal(i));
    const started = performance.now();
    connector = await startConnectorService({ dataDir, booksUrl: books.xmlUrl, config });
    const drained = connector;
    await new Promise<void>((resolve) => {
      const check = (status = drained.status()) => {
        if (status.queue.done >= TOTAL && status.queue.unreported === 0) {
          off();
          resolve();
        }
      };
      const off = drained.onStatusChange(check);
      check();
    });
    const seconds = (performance.now() - started) / 1000;
    const imports = connector.status().books.requests.import ?? 0;
    return { rate: TOTAL / seconds, batch: TOTAL / Math.max(1, imports) };
  } finally {
    await connector.stop();
    await relay.close();
    await books.close();
  }
}

async function emulatorRate(batch: number): Promise<number> {
  const books = await startEmulator({ port: 0, controlPort: 0, dataDir: tempDir('bench-books-'), seed: 'demo' });
  try {
    const name = 'Ledgerwire Demo Traders';
    const started = performance.now();
    for (let first = 0; first < TOTAL; first += batch) {
      const vouchers = [];
      for (let i = first; i < Math.min(TOTAL, first + batch); i += 1) vouchers.push({ document: journal(i), options: { remoteId: randomUUID() } });
      const xml = renderVoucherImportBatch(name, vouchers);
      // As the connector sends it: UTF-16LE with a BOM.
      const response = await fetch(books.xmlUrl, { method: 'POST', body: Buffer.from(`\uFEFF${xml}`, 'utf16le'), headers: { 'content-type': 'text/xml; charset=utf-16' } });
      const answer = new TextDecoder('utf-16le').decode(await response.arrayBuffer());
      const created = Number(/<CREATED>(\d+)<\/CREATED>/.exec(answer)?.[1] ?? 0);
      if (created !== vouchers.length) throw new Error(`the emulator created ${created} of ${vouchers.length}: ${answer.slice(0, 300)}`);
    }
    return TOTAL / ((performance.now() - started) / 1000);
  } finally {
    await books.close();
  }
}

export type PipelineResult = Readonly<{ vouchers: number; pipelineRate: number; achievedBatch: number; emulatorRate: number; ratio: number }>;

export async function measurePipeline(): Promise<PipelineResult> {
  const pipeline = await pipelineRate();
  const batch = Math.max(1, Math.round(pipeline.batch));
  const alone = await emulatorRate(batch);
  return { vouchers: TOTAL, pipelineRate: pipeline.rate, achievedBatch: pipeline.batch, emulatorRate: alone, ratio: pipeline.rate / alone };
}

export function printPipeline(result: PipelineResult): void {
  console.log(`  pipeline API→relay→connector→emulator: ${result.pipelineRate.toFixed(1)} vouchers/s (achieved batch ${result.achievedBatch.toFixed(1)} per import)`);
  console.log(`  emulator alone at batch ${Math.max(1, Math.round(result.achievedBatch))}:           ${result.emulatorRate.toFixed(1)} vouchers/s`);
  console.log(`  ratio pipeline/emulator: ${result.ratio.toFixed(2)} (target ≥ 0.90)`);
}

export async function run(): Promise<void> {
  console.log(`connector-pipeline: ${TOTAL} journals, connector import batch up to ${IMPORT_BATCH}`);
  printPipeline(await measurePipeline());
}
