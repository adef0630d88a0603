// The long rolling restart (not part of `npm test`): more relays, several rounds, more vouchers.
//   npx tsx e2e/load-balancer/run-rolling-restart.ts --relays 3 --rounds 2 --vouchers 600 --rate 20
// Prints the report and exits 1 when anything failed or a timing went past its target (the test
// asserts the outcomes and only prints the timings).
import { parseArgs } from 'node:util';
import { buildProgramsWhenStale } from '../demo/demo-processes.js';
import { formatRollingRestart, runRollingRestart } from './rolling-restart.js';

const { values } = parseArgs({
  options: {
    relays: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '2' },
    vouchers: { type: 'string', default: '600' },
    rate: { type: 'string', default: '20' },
    deadline: { type: 'string', default: '300' },
  },
});

function wholeNumber(name: string, text: string, min: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be a whole number from ${min} (got "${text}")`);
  return value;
}

const options = {
  relays: wholeNumber('relays', values.relays, 2),
  rounds: wholeNumber('rounds', values.rounds, 1),
  vouchers: wholeNumber('vouchers', values.vouchers, 1),
  postsPerSecond: wholeNumber('rate', values.rate, 1),
  deadlineMs: wholeNumber('deadline', values.deadline, 10) * 1000,
};
process.stdout.write(`rolling restart: ${options.relays} relays, ${options.rounds} round(s), at least ${options.vouchers} vouchers at ${options.postsPerSecond}/s\n`);
// It runs the compiled programs, as the test run does: built first when a source changed since.
buildProgramsWhenStale();
const report = await runRollingRestart(options);
process.stdout.write(`${formatRollingRestart(report)}\n`);
process.exitCode = report.failures.length === 0 && report.overTarget.length === 0 ? 0 : 1;
