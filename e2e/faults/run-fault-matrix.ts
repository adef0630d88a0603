// `npm run faults [-- --vouchers 300 --seed 7 --only relay]`: the whole fault matrix, longer than the
// trimmed run in `npm test`, printing one line per fault: lost / duplicated / stuck and time to recover.
import { parseArgs } from 'node:util';
import { FAULTS, formatReport, runFault } from './fault-matrix.js';

const { values } = parseArgs({
  options: {
    vouchers: { type: 'string', default: '300' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    only: { type: 'string' },
  },
});

async function main(): Promise<number> {
  const vouchers = Number(values.vouchers);
  const seed = Number(values.seed);
  const faults = FAULTS.filter((fault) => values.only === undefined || fault.name.includes(values.only));
  process.stdout.write(`fault matrix: ${faults.length} faults, ${vouchers} vouchers each, seed ${seed}\n`);
  let failed = 0;
  for (const fault of faults) {
    const report = await runFault(fault, { vouchers, seed, deadlineMs: 300_000 });
    process.stdout.write(`${formatReport(report)}\n`);
    for (const failure of report.failures.slice(0, 10)) process.stdout.write(`     ${failure}\n`);
    if (report.failures.length > 0 || report.lost + report.duplicated + report.stuck > 0) failed += 1;
  }
  return failed === 0 ? 0 : 1;
}

main().then((code) => process.exit(code), (error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
