// The fault matrix in `npm test`, trimmed to fit CI: each fault once, on a few dozen vouchers. The
// full run (hundreds of vouchers per fault, any seed) is `npm run faults`. The PostgreSQL faults run a
// cluster of their own (initdb + pg_ctl); where PostgreSQL's server programs are missing they are
// skipped, loudly, and under REQUIRE_POSTGRES=1 they fail instead.
import { describe, expect, it } from 'vitest';
import { faketimeAvailable } from '../support/installation-programs.js';
import { FAULTS, formatReport, runFault } from './fault-matrix.js';
import { throwawayPostgresAvailable } from './throwaway-postgres.js';

const VOUCHERS = Number(process.env['FAULT_MATRIX_VOUCHERS'] ?? 40);
const SEED = Number(process.env['FAULT_MATRIX_SEED'] ?? 20261125);
const requirePostgres = process.env['REQUIRE_POSTGRES'] === '1';
const postgresServer = throwawayPostgresAvailable();
if (!postgresServer) {
  const say = requirePostgres ? 'REQUIRE_POSTGRES=1 and' : 'SKIPPING the PostgreSQL faults:';
  process.stderr.write(`\n*** fault matrix: ${say} PostgreSQL's server programs (initdb, pg_ctl) are not installed ***\n\n`);
}

const faketime = faketimeAvailable();
if (!faketime) process.stderr.write('\n*** fault matrix: SKIPPING the clock-skew faults: libfaketime (Debian package faketime) is not installed ***\n\n');

describe('fault matrix: every voucher in the books exactly once, every transaction ended', () => {
  for (const fault of FAULTS) {
    const runnable = (fault.database === 'sqlite' || postgresServer || requirePostgres) && (fault.connectorClock === undefined || faketime || process.env['CI'] === 'true');
    it.skipIf(!runnable)(fault.name, { timeout: 240_000 }, async () => {
      if (fault.database === 'postgres' && !postgresServer) throw new Error("REQUIRE_POSTGRES=1 but PostgreSQL's server programs (initdb, pg_ctl) are missing");
      const report = await runFault(fault, { vouchers: VOUCHERS, seed: SEED, deadlineMs: 90_000 });
      process.stdout.write(`${formatReport(report)}\n`);
      expect(report.failures).toEqual([]);
      expect(report).toMatchObject({ lost: 0, duplicated: 0, stuck: 0, accepted: VOUCHERS });
    });
  }
});
