// The fault matrix in `npm test`, trimmed to fit CI: each fault once, on a few dozen vouchers. The
// full run (hundreds of vouchers per fault, any seed) is `npm run faults`.
import { describe, expect, it } from 'vitest';
import { FAULTS, formatReport, runFault } from './fault-matrix.js';

const VOUCHERS = Number(process.env.FAULT_MATRIX_VOUCHERS ?? 40);
const SEED = Number(process.env.FAULT_MATRIX_SEED ?? 20261125);

describe('fault matrix: every voucher in the books exactly once, every transaction ended', () => {
  for (const fault of FAULTS) {
    it(fault.name, { timeout: 240_000 }, async () => {
      const report = await runFault(fault, { vouchers: VOUCHERS, seed: SEED, deadlineMs: 90_000 });
      process.stdout.write(`${formatReport(report)}\n`);
      expect(report.failures).toEqual([]);
      expect(report).toMatchObject({ lost: 0, duplicated: 0, stuck: 0, accepted: VOUCHERS });
    });
  }
});
