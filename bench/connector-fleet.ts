// `npm run bench -- connector-fleet`: ten thousand connectors on one relay. The relay runs as its own
// process (SQLite, default heartbeat); this process enrols BENCH_CONNECTORS connectors over HTTP, opens
// one authenticated WebSocket session each (hello, then answering the relay's pings), and measures:
//   idle    — the relay's RSS and CPU share while every session is open and nothing happens
//             (targets: under 1.5 GB, under 5 % of a core);
//   dead    — how long a connector that goes silent without closing its socket (a pulled network
//             cable) takes to read offline in the operator API (target: 45 s at most);
//   restart — the relay is stopped (SIGTERM) and started again; every connector reconnects with the
//             real connector's policy (reconnectPolicy in connector/src/core/relay/backoff.ts, with the
//             connector's default base and cap) — how long until all are back (target ≤ 60 s), each one's time back (p95 ≤ 10 s),
//             and whether the relay refused any upgrade once it listened again (target: none).
// Both processes need a file limit above BENCH_CONNECTORS (`ulimit -n`; 20,000 on the build machines);
// the bench says so and stops when its own is lower.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { reconnectPolicy } from '@ledgerwire/connector';
import { CONNECTOR_PROTOCOL_VERSION, parseServerMessage, type ConnectorEnrolOut, type Frame } from '@ledgerwire/shared';
import WebSocket from 'ws';

const CONNECTORS = Number(process.env.BENCH_CONNECTORS ?? 10_000);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
const TOKEN = 'lwop_bench-fleet-operator-token-0123456789';
const RECONNECT_BASE_MS = 500; // the connector's defaults (connector/src/core/config/load-config.ts)
const RECONNECT_CAP_MS = 30_000;
const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

type Relay = { child: ChildProcess; port: number; url: string };

async function startRelay(dataDir: string, port: number): Promise<Relay> {
  const entry = path.join(repositoryRoot, 'relay/src/server.ts');
  // node itself with tsx's loader, so the child's pid is the relay's (for /proc).
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: repositoryRoot,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, RELAY_ADMIN_TOKEN: TOKEN, LOG_LEVEL: 'error', BRIDGE_RATE_LIMIT_PER_MINUTE: '10000000' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout! });
  const bound = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the relay exited (${code}) before it listened`)));
    lines.on('line', (line) => {
      const match = /listening on http:\/\/[^:]+:(\d+)/.exec(line);
      if (match) resolve(Number(match[1]));
    });
  });
  return { child, port: bound, url: `http://127.0.0.1:${bound}` };
}

function processStats(pid: number): { rssMb: number; cpuSeconds: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime
  return { rssMb: rssKb / 1024, cpuSeconds: ticks / 100 };
}

async function json<T>(url: string, method: string, body?: unknown, token = TOKEN): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url} → ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

async function inBatches<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

/** One connector's session, with the real connector's reconnect policy. */
class FleetConnector {
  socket: WebSocket | undefined;
  welcomedAt = 0;
  refusals = 0;
  silent = false;
  /** The close code of the last connection that had opened (1001, going away, when the relay stops). */
  lastSessionClose: number | undefined;
  private readonly policy = reconnectPolicy(RECONNECT_BASE_MS, RECONNECT_CAP_MS);
  private stopped = false;

  constructor(
    private readonly credential: string,
    private relayUrl: () => string,
    private readonly openCompanies: readonly { guid: string; name: string }[] = [],
  ) {}

  connect(): Promise<void> {
    return new Promise((resolve) => {
      const socket = new WebSocket(`${this.relayUrl().replace(/^http/, 'ws')}/api/v1/connectors/socket`, { headers: { authorization: `Bearer ${this.credential}` } });
      this.socket = socket;
      let settled = false;
      let opened = false;
      const done = () => {
        if (!settled) {
          settled = true;
          resolve();
        }
      };
      socket.on('unexpected-response', (request, response) => {
        this.refusals += 1;
        response.resume();
        request.destroy(); // ends in 'close', so the connector tries again as the real one does
      });
      socket.on('open', () => {
        opened = true;
        socket.send(JSON.stringify({ type: 'hello', v: CONNECTOR_PROTOCOL_VERSION, connector_version: 'bench', books: { running: true, open_companies: [...this.openCompanies] } }));
      });
      socket.on('message', (data) => {
        if (this.silent) return;
        const parsed = parseServerMessage(data as Frame);
        if (!parsed.ok) return;
        const message = parsed.message;
        if (message.type === 'welcome') {
          this.welcomedAt = performance.now();
          this.policy.connected();
          done();
        }
        if (message.type === 'ping') socket.send(JSON.stringify({ type: 'pong', v: CONNECTOR_PROTOCOL_VERSION, nonce: message.nonce }));
      });
      socket.on('error', () => undefined);
      socket.on('close', (code) => {
        if (opened) this.lastSessionClose = code;
        done();
        if (this.stopped || this.silent) return;
        setTimeout(() => void this.connect(), this.policy.delayAfterClose(code));
      });
    });
  }

  /** A pulled cable: the socket stays open, nothing is read or answered any more. */
  goSilent(): void {
    this.silent = true;
    (this.socket as unknown as { _socket?: { pause(): void } })._socket?.pause();
  }

  stop(): void {
    this.stopped = true;
    this.socket?.terminate();
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function openFileLimit(): number {
  const line = fs.readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
  return Number(line?.split(/\s{2,}/)[1] ?? Infinity);
}

export async function run(): Promise<void> {
  const limit = openFileLimit();
  if (limit < CONNECTORS + 500) throw new Error(`the open-file limit is ${limit}: raise it (ulimit -n) above ${CONNECTORS + 500} for ${CONNECTORS} connectors`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fleet-'));
  let relay = await startRelay(dataDir, 0);
  const fleet: FleetConnector[] = [];
  try {
    const { application } = await json<{ application: { id: string } }>(`${relay.url}/admin/v1/applications`, 'POST', { name: 'Fleet' });
    const key = await json<{ credential: string }>(`${relay.url}/admin/v1/applications/${application.id}/keys`, 'POST', { environment: 'test' });
    const { customer } = await json<{ customer: { token: string } }>(`${relay.url}/api/v1/customers`, 'POST', { name: 'Fleet customers' }, key.credential);
    // The connector that will go silent belongs to an application of its own, so it is listed alone.
    const { application: lone } = await json<{ application: { id: string } }>(`${relay.url}/admin/v1/applications`, 'POST', { name: 'Lone' });
    const loneKey = await json<{ credential: string }>(`${relay.url}/admin/v1/applications/${lone.id}/keys`, 'POST', { environment: 'test' });
    const { customer: loneCustomer } = await json<{ customer: { id: string; token: string } }>(`${relay.url}/api/v1/customers`, 'POST', { name: 'Lone' }, loneKey.credential);

    const started = performance.now();
    const credentials: string[] = new Array(CONNECTORS);
    await inBatches([...Array(CONNECTORS).keys()], 32, async (i) => {
      const token = i === 0 ? loneCustomer.token : customer.token;
      const enrolled = await json<ConnectorEnrolOut>(`${relay.url}/api/v1/connectors/enroll`, 'POST', { token, machine_name: `PC-${i}`, version: 'bench' });
      credentials[i] = enrolled.credential;
    });
    const enrolSeconds = (performance.now() - started) / 1000;
    const loneBooks = { guid: '7f1c0b2e-0000-4000-8000-00000000b00c', name: 'Lone Books' };
    credentials.forEach((credential, i) => fleet.push(new FleetConnector(credential, () => relay.url, i === 0 ? [loneBooks] : [])));
    const openedAt = performance.now();
    await inBatches(fleet, 200, (connector) => connector.connect());
    const welcomed = fleet.filter((c) => c.welcomedAt > 0).length;
    process.stdout.write(`Connector fleet on one relay (SQLite, default heartbeat), Node ${process.version}, ${os.cpus().length} cores\n`);
    process.stdout.write(`enrolled ${CONNECTORS} in ${enrolSeconds.toFixed(1)} s; ${welcomed} sessions open in ${((performance.now() - openedAt) / 1000).toFixed(1)} s\n`);

    // Idle.
    const before = processStats(relay.child.pid!);
    const idleStart = performance.now();
    await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
    const after = processStats(relay.child.pid!);
    const cpuShare = (after.cpuSeconds - before.cpuSeconds) / ((performance.now() - idleStart) / 1000);
    process.stdout.write(`idle:    relay RSS ${after.rssMb.toFixed(0)} MB (target < 1536), CPU ${(cpuShare * 100).toFixed(1)} % of a core over ${IDLE_SECONDS} s (target < 5 %)\n`);

    // A silently dead connector, read as an integrator reads it: its company's health.
    const loneConnector = await json<{ connectors: { id?: string; connector_id?: string }[] }>(`${relay.url}/admin/v1/connectors?application_id=${lone.id}`, 'GET');
    const connectorId = loneConnector.connectors[0]?.connector_id ?? loneConnector.connectors[0]?.id;
    const company = await json<{ company_id: number }>(`${relay.url}/api/v1/companies`, 'POST', { name: 'Lone company' }, loneKey.credential);
    await json(`${relay.url}/api/v1/companies/${company.company_id}/customer`, 'POST', { customer_id: loneCustomer.id }, loneKey.credential);
    await json(`${relay.url}/admin/v1/companies/${company.company_id}/pair`, 'POST', { connector_id: connectorId, books_company_guid: loneBooks.guid });
    const health = () =>
      json<{ connector: { online: boolean } }>(`${relay.url}/api/v1/companies/${company.company_id}/health?company_id=${company.company_id}`, 'GET', undefined, loneKey.credential);
    if (!(await health()).connector.online) throw new Error('the lone connector does not read online before it goes silent');
    const lonely = fleet[0]!;
    const silentAt = performance.now();
    lonely.goSilent();
    let offlineAfter = NaN;
    while (performance.now() - silentAt < 180_000) {
      if (!(await health()).connector.online) {
        offlineAfter = (performance.now() - silentAt) / 1000;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    process.stdout.write(`dead:    a silent connector's company health read offline after ${offlineAfter.toFixed(1)} s (target <= 45 s)\n`);
    lonely.stop();

    // Restart.
    const live = fleet.slice(1);
    for (const connector of live) connector.welcomedAt = 0;
    const refusalsBefore = live.reduce((n, c) => n + c.refusals, 0);
    const stoppedAt = performance.now();
    const exited = new Promise((resolve) => relay.child.once('exit', resolve));
    relay.child.kill('SIGTERM');
    await exited;
    const stoppedAfter = (performance.now() - stoppedAt) / 1000;
    relay = await startRelay(dataDir, relay.port);
    const listeningAfter = (performance.now() - stoppedAt) / 1000;
    while (live.some((c) => c.welcomedAt === 0) && performance.now() - stoppedAt < 180_000) await new Promise((resolve) => setTimeout(resolve, 200));
    const backTimes = live.filter((c) => c.welcomedAt > 0).map((c) => (c.welcomedAt - stoppedAt) / 1000).sort((a, b) => a - b);
    const refusals = live.reduce((n, c) => n + c.refusals, 0) - refusalsBefore;
    const closeCodes = new Map<string, number>();
    for (const connector of live) closeCodes.set(String(connector.lastSessionClose), (closeCodes.get(String(connector.lastSessionClose)) ?? 0) + 1);
    process.stdout.write(
      `restart: relay stopped after ${stoppedAfter.toFixed(1)} s, listening again after ${listeningAfter.toFixed(1)} s; ${backTimes.length}/${live.length} back, all within ${backTimes.at(-1)?.toFixed(1)} s (target <= 60 s); ` +
        `each back within p50 ${percentile(backTimes, 50).toFixed(1)} s, p95 ${percentile(backTimes, 95).toFixed(1)} s (target <= 10 s); upgrades refused ${refusals} (target 0); ` +
        `sessions closed with ${[...closeCodes].map(([code, n]) => `${code} ×${n}`).join(', ')}\n`,
    );
  } finally {
    for (const connector of fleet) connector.stop();
    relay.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
