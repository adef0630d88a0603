// Several relays behind nginx, restarted one after the other while writes flow (issue 23, item 5),
// trimmed for `npm test`: two relays, one round, about sixty vouchers. The longer run (more relays,
// rounds and vouchers) is e2e/load-balancer/run-rolling-restart.ts.
import { describe, expect, it } from 'vitest';
import { throwawayPostgresAvailable } from '../faults/throwaway-postgres.js';
import { nginxAvailable } from './nginx-balancer.js';
import { formatRollingRestart, longestStall, runRollingRestart } from './rolling-restart.js';

// CI installs nginx (.ci/run); elsewhere the suite says plainly that it is skipped.
const present = nginxAvailable() && throwawayPostgresAvailable();
if (!present && process.env.CI) throw new Error('the load-balancer suite needs nginx (/usr/sbin/nginx) and PostgreSQL binaries (initdb)');

describe.skipIf(!present)('rolling restart of the relays behind nginx', () => {
  it('books every voucher once, moves the connector to the other relay, publishes presence once', { timeout: 240_000 }, async () => {
    const report = await runRollingRestart({ relays: 2, vouchers: 60, rounds: 1, postsPerSecond: 6, deadlineMs: 60_000 });
    process.stdout.write(`${formatRollingRestart(report)}\n`);
    expect(report.failures).toEqual([]);
    expect(report).toMatchObject({ lost: 0, duplicated: 0, stuck: 0, failed: 0, presence: { online: 1, offline: 0 } });
    expect(report.completed).toBe(report.accepted);
    expect(report.accepted).toBeGreaterThanOrEqual(60);
    expect(report.restarts.map((r) => r.exitCode)).toEqual([0, 0]);
    // The connector was on one of the two relays: that relay's restart moved it at least once.
    expect(report.sessions.length).toBeGreaterThanOrEqual(2);
    // How long the moves took is printed above (and fails the long run, run-rolling-restart.ts), not
    // asserted here: a timing on a shared two-core machine is a figure, not a verdict.
  });
});

describe('longest stall', () => {
  const at = (seconds: number) => new Date(Date.UTC(2026, 10, 25, 12, 0, seconds)).toISOString();
  const tx = (created: number, completed: number | null) => ({ transaction_id: `t${created}`, status: completed === null ? 'queued' : 'completed', created_at: at(created), completed_at: completed === null ? null : at(completed) });

  it('counts a gap between completions only while work was waiting', () => {
    // 0→1 done, nothing waits from 1 to 10, then a job created at 10 waits until 14: the stall is 4 s.
    expect(longestStall([tx(0, 1), tx(10, 14), tx(11, 15)])).toEqual({ ms: 4000, from: Date.parse(at(10)) });
  });

  it('counts from the earlier completion when the waiting job was already there', () => {
    expect(longestStall([tx(0, 1), tx(0, 7), tx(2, 8)])).toEqual({ ms: 6000, from: Date.parse(at(1)) });
  });
});
