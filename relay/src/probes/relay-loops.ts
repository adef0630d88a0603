// Every background loop this relay process runs, in one list, and their reports as the wire shape:
// for /readyz (probe-routes.ts) and the console's Operations page (console-query-routes.ts).
import type { FastifyInstance } from 'fastify';
import type { LoopHealthOut } from '@ledgerwire/shared';
import type { BackgroundLoop, LoopReport } from '../background/background-loop.js';

export function relayLoops(app: FastifyInstance): BackgroundLoop[] {
  return [...app.messaging.loops, ...app.webhooks.loops, ...app.bridge.loops, ...app.gateway.loops];
}

/** Each loop's report; `withLag` false (the database does not answer) leaves the lag out instead of failing. */
export async function loopReports(app: FastifyInstance, withLag: boolean): Promise<LoopHealthOut[]> {
  return Promise.all(
    relayLoops(app).map(async (loop) => {
      let report: LoopReport;
      try {
        report = withLag ? await loop.report() : { ...loop.health(), oldestDueLagMs: null };
      } catch {
        report = { ...loop.health(), oldestDueLagMs: null };
      }
      return toWire(report);
    }),
  );
}

function toWire(report: LoopReport): LoopHealthOut {
  return {
    name: report.name,
    running: report.running,
    interval_ms: report.intervalMs,
    last_pass_at: report.lastPassAt,
    last_error: report.lastError,
    last_error_at: report.lastErrorAt,
    consecutive_failures: report.consecutiveFailures,
    oldest_due_lag_ms: report.oldestDueLagMs === null ? null : Math.round(report.oldestDueLagMs),
    stuck: report.stuck,
  };
}
