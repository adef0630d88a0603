// `npm run bench -- send`: requests per second and p50/p99 latency of POST /api/messages/send (API
// key check, burst limit, validation, template render, message insert with the sustained/daily
// counters, concurrent sends grouped into one transaction) on SQLite, beside a bare Fastify route
// measured the same way in the same run, printed as a ratio (target ≥ 0.40). Both servers listen on
// 127.0.0.1 and are driven over real HTTP with keep-alive connections by the loop below, in
// alternating slices. The dispatch worker is off (BENCH_WORKERS=1 turns it on) so the figure is the
// accept path, not .eml writing.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { buildApp, loadConfig } from '@ledgerwire/relay';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
/** Each side's SECONDS are measured in this many slices, alternating with the other side's. */
const SLICES = 10;
const ADMIN_TOKEN = 'lwop_bench-operator-token-0123456789';

type Result = { requests: number; errors: number; seconds: number; p50: number; p99: number; latencies: number[] };
type Request = { method: string; path: string; headers: Record<string, string>; body?: () => string; expect: number };

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function once(agent: http.Agent, port: number, request: Request): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = request.body?.();
    const req = http.request(
      { agent, host: '127.0.0.1', port, method: request.method, path: request.path, headers: { ...request.headers, ...(body ? { 'content-length': Buffer.byteLength(body) } : {}) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The slices of one side as one result (latency percentiles over every request of every slice). */
function combine(slices: readonly Result[]): Result {
  const latencies = slices.flatMap((slice) => slice.latencies).sort((a, b) => a - b);
  return {
    requests: slices.reduce((n, slice) => n + slice.requests, 0),
    errors: slices.reduce((n, slice) => n + slice.errors, 0),
    seconds: slices.reduce((n, slice) => n + slice.seconds, 0),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    latencies,
  };
}

/** Keeps CONNECTIONS requests in flight for `seconds`; every answer must have the expected status. */
async function load(port: number, request: Request, seconds: number): Promise<Result> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies: number[] = [];
  let errors = 0;
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(Math.round(seconds * 1e9));
  const worker = async () => {
    while (process.hrtime.bigint() < deadline) {
      const t0 = process.hrtime.bigint();
      const status = await once(agent, port, request).catch(() => 0);
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (status !== request.expect) errors += 1;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, errors, seconds: elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), latencies };
}

async function json(port: number, method: string, url: string, body: unknown): Promise<any> {
  const response = await fetch(`http://127.0.0.1:${port}${url}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  if (response.status >= 300) throw new Error(`${method} ${url} → ${response.status}: ${await response.text()}`);
  return response.json();
}

async function startRelay(dataDir: string) {
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RELAY_ADMIN_TOKEN: ADMIN_TOKEN,
    RELAY_WORKERS: process.env.BENCH_WORKERS === '1' ? '1' : '0',
  });
  const app = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const unlimited = { burst_per_minute: 1e9, sustained_per_minute: 1e9, daily_quota: 1e9 };
  const { tenant } = await json(port, 'POST', '/admin/v1/tenants', { name: 'Bench', org_id: 1, limits: unlimited });
  const { api_key } = await json(port, 'POST', `/admin/v1/tenants/${tenant.id}/api-keys`, {});
  await json(port, 'POST', `/admin/v1/tenants/${tenant.id}/templates`, {
    event_key: 'invoice_ready',
    channel: 'email',
    subject: 'Invoice {{number}}',
    html: '<p>Hello {{name}}, invoice {{number}} for {{amount}} is ready.</p>',
    text: 'Hello {{name}}, invoice {{number}} for {{amount}} is ready.',
    is_active: true,
  });
  return { app, port, apiKey: api_key as string };
}

async function startBare() {
  const app = Fastify({ logger: false });
  app.get('/hello', { schema: { response: { 200: { type: 'object', properties: { hello: { type: 'string' } } } } } }, () => ({ hello: 'world' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as AddressInfo).port };
}

function line(label: string, r: Result): string {
  const rps = r.requests / r.seconds;
  return `${label.padEnd(44)} ${rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(6)} ms   (${r.requests} requests, ${r.errors} unexpected)`;
}

export async function run(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-send-'));
  const relay = await startRelay(dataDir);
  const bare = await startBare();
  try {
    let counter = 0;
    const send: Request = {
      method: 'POST',
      path: '/api/messages/send',
      headers: { authorization: `Bearer ${relay.apiKey}`, 'content-type': 'application/json' },
      body: () =>
        JSON.stringify({
          channel: 'email',
          to: 'ada@example.com',
          subject: 'Invoice {{number}}',
          event_key: 'invoice_ready',
          transaction_id: `bench-${++counter}`,
          data: { name: 'Ada', number: `INV-${counter}`, amount: '120.00' },
        }),
      expect: 200,
    };
    const hello: Request = { method: 'GET', path: '/hello', headers: {}, expect: 200 };

    // Warm both up (JIT, SQLite page cache, compiled templates), then measure each for SECONDS in
    // alternating slices, so that a change in the machine's load falls on both sides alike.
    await load(bare.port, hello, 1);
    await load(relay.port, send, 1);
    const bareSlices: Result[] = [];
    const sendSlices: Result[] = [];
    for (let slice = 0; slice < SLICES; slice += 1) {
      bareSlices.push(await load(bare.port, hello, SECONDS / SLICES));
      sendSlices.push(await load(relay.port, send, SECONDS / SLICES));
    }
    const bareResult = combine(bareSlices);
    const sendResult = combine(sendSlices);

    const ratio = sendResult.requests / sendResult.seconds / (bareResult.requests / bareResult.seconds);
    process.stdout.write(`Send path vs bare Fastify, ${SECONDS} s each in ${SLICES} alternating slices, ${CONNECTIONS} keep-alive connections, SQLite, Node ${process.version}\n`);
    process.stdout.write(`${line('POST /api/messages/send (relay, SQLite)', sendResult)}\n`);
    process.stdout.write(`${line('GET /hello (bare Fastify)', bareResult)}\n`);
    process.stdout.write(`ratio send/bare: ${ratio.toFixed(2)} (target >= 0.40)\n`);
  } finally {
    await bare.app.close();
    await relay.app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
