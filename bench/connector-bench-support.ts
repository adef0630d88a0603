// Shared by the connector benchmarks: a relay on a port (SQLite in a temp dir) with one paired company,
// the emulator, and helpers to read a connector process's peak memory.
import type { BusySample } from '@ledgerwire/emulator';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, loadConfig } from '@ledgerwire/relay';

const OPERATOR = 'lwop_bench-operator-token-0123456789';

export type BenchRelay = {
  app: FastifyInstance;
  baseUrl: string;
  customerToken: string;
  companyId: number;
  api<T = any>(method: string, url: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
};

async function call(app: FastifyInstance, method: string, url: string, token: string, body?: unknown): Promise<any> {
  const response = await app.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${token}` }, ...(body === undefined ? {} : { payload: body as object }) });
  if (response.statusCode >= 300) throw new Error(`${method} ${url} → ${response.statusCode}: ${response.body.slice(0, 500)}`);
  return response.json();
}

export async function startBenchRelay(env: Record<string, string> = {}): Promise<BenchRelay> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-relay-'));
  const app = await buildApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', RELAY_ADMIN_TOKEN: OPERATOR, BRIDGE_RATE_LIMIT_PER_MINUTE: '1000000', ...env }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const application = await call(app, 'POST', '/admin/v1/applications', OPERATOR, { name: 'bench' });
  const key = await call(app, 'POST', `/admin/v1/applications/${application.application.id}/keys`, OPERATOR, { environment: 'test', capabilities: ['pull.master'] });
  const customer = await call(app, 'POST', '/api/v1/customers', key.credential, { name: 'Bench Traders' });
  const company = await call(app, 'POST', '/api/v1/companies', key.credential, { name: 'Bench books' });
  await call(app, 'POST', `/api/v1/companies/${company.company_id}/customer`, key.credential, { customer_id: customer.customer.id });
  return {
    app,
    baseUrl: `http://127.0.0.1:${port}`,
    customerToken: customer.customer.token,
    companyId: company.company_id,
    api: (method, url, body) => call(app, method, url, key.credential, body),
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Peak resident memory of a process (Linux /proc VmHWM), in MB; undefined elsewhere. */
export function peakRssMb(pid: number): number | undefined {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Resident memory of a process now (Linux /proc VmRSS), in MB; undefined elsewhere. */
export function currentRssMb(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU time a process has used so far (Linux /proc, user + system), in ms; undefined elsewhere. */
export function cpuTimeMs(pid: number): number | undefined {
  try {
    // Fields after the command name (which may hold spaces, so split after its closing parenthesis).
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * 10 : undefined; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

/** Of that, the time spent in the kernel (system time: socket and file writes, page faults), in ms. */
export function cpuSystemMs(pid: number): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ticks = Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Time a process's main thread has spent ready to run but waiting for a core (Linux schedstat), in ms;
 * undefined elsewhere. Where several programs share few cores it says how much of a slowdown is theirs.
 */
export function coreWaitMs(pid: number): number | undefined {
  try {
    const waitedNs = Number(fs.readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[1]);
    return Number.isFinite(waitedNs) ? waitedNs / 1e6 : undefined;
  } catch {
    return undefined;
  }
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** The emulator's busy time (its control API, GET /busy; see the emulator's README). */
export async function booksBusy(controlUrl: string): Promise<BusySample> {
  const response = await fetch(`${controlUrl}/busy`);
  if (response.status !== 200) throw new Error(`GET /busy → ${response.status}`);
  return (await response.json()) as BusySample;
}

/**
 * How much of the wall time between two samples the books were busy, on the emulator's own clock. When
 * the later sample finds them idle the window ends with their last answer, so the time the caller took
 * to notice the end is not counted as idle. `busyShare` counts the books' own garbage collection between
 * two requests as their work (`collectorShare` says how much of it that was); `gapMs` is the mean time
 * between two requests the books did nothing at all.
 */
export function booksUtilisation(
  before: BusySample,
  after: BusySample,
): { busyShare: number; collectorShare: number; requests: number; connections: number; gapMs: number } {
  const end = after.idleSinceMs ?? after.clockMs;
  const wall = end - before.clockMs;
  const collector = after.collectorMs - before.collectorMs;
  const busy = after.busyMs - before.busyMs + collector;
  const requests = after.requests - before.requests;
  return {
    busyShare: busy / wall,
    collectorShare: collector / wall,
    requests,
    connections: after.connections - before.connections,
    gapMs: requests > 0 ? (wall - busy) / requests : NaN,
  };
}
