// `npm run bench -- connector`: the connector's three ratios side by side in one run — the voucher
// pipeline against the emulator's own import rate, the first sync's peak memory against its budget,
// and the cost of a sync with nothing changed against one probe.
import { measurePipeline, printPipeline } from './connector-pipeline.js';
import { measureSync, printSync } from './connector-sync.js';

export async function run(): Promise<void> {
  console.log('connector: pipeline, then sync');
  const pipeline = await measurePipeline();
  printPipeline(pipeline);
  const sync = await measureSync();
  printSync(sync);
  const rows: [string, string, string, string][] = [
    ['pipeline vs emulator import (same batch)', pipeline.ratio.toFixed(2), '≥ 0.90', pipeline.ratio >= 0.9 ? 'met' : 'NOT met'],
    [`peak RSS, first sync of ${sync.vouchers} vouchers, vs 250 MB`, sync.rssRatio.toFixed(2), '≤ 1.00', sync.rssRatio <= 1 ? 'met' : 'NOT met'],
    ['books requests of an unchanged sync vs 1 probe', sync.secondSyncRequests.toFixed(2), '= 1.00', sync.secondSyncRequests === 1 ? 'met' : 'NOT met'],
  ];
  console.log('\n  ratio                                              value   target   result');
  for (const [name, value, target, result] of rows) console.log(`  ${name.padEnd(50)} ${value.padStart(5)}   ${target.padEnd(7)}  ${result}`);
}
