// The HTTP drivers the API benches share: a closed loop (N keep-alive connections, each sending its
// next request when the last one answers: the maximum rate) measured in slices that alternate with
// the bare Fastify route's, and an open loop (requests sent on a fixed schedule whatever the
// answers, latency counted from the moment each request was due, so a stall is not hidden by the
// driver waiting on it) for the p99 at a given load.
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';

/** `cpuSeconds`: this process's CPU time (user + system) over the measurement: driver and server together. */
export type Result = { requests: number; errors: number; seconds: number; cpuSeconds: number; p50: number; p99: number; latencies: number[] };
export type Request = { method: string; path: string; headers: Record<string, string>; body?: () => string; expect: number };

export function percentile(sorted: readonly number[], p: number): number {
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

function cpuSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

function resultOf(latencies: number[], errors: number, seconds: number, cpuSeconds: number): Result {
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, errors, seconds, cpuSeconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), latencies };
}

/** The slices of one side as one result (latency percentiles over every request of every slice). */
export function combine(slices: readonly Result[]): Result {
  return resultOf(
    slices.flatMap((slice) => slice.latencies),
    slices.reduce((n, slice) => n + slice.errors, 0),
    slices.reduce((n, slice) => n + slice.seconds, 0),
    slices.reduce((n, slice) => n + slice.cpuSeconds, 0),
  );
}

/** Keeps `connections` requests in flight for `seconds`; every answer must have the expected status. */
export async function closedLoop(port: number, request: Request, seconds: number, connections: number): Promise<Result> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let errors = 0;
  const cpu = process.cpuUsage();
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
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  agent.destroy();
  return resultOf(latencies, errors, elapsed, cpuSince(cpu));
}

/**
 * Sends `rate` requests per second for `seconds` on a fixed schedule, never waiting for answers
 * (keep-alive connections are opened as the backlog needs them). A request's latency runs from when
 * it was due, not from when the driver got round to sending it.
 */
export async function openLoop(port: number, request: Request, rate: number, seconds: number): Promise<Result> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  let errors = 0;
  const cpu = process.cpuUsage();
  const total = Math.max(1, Math.round(rate * seconds));
  const intervalNs = 1e9 / rate;
  const started = process.hrtime.bigint();
  let sent = 0;
  await new Promise<void>((done) => {
    const tick = () => {
      const elapsedNs = Number(process.hrtime.bigint() - started);
      const due = Math.min(total, Math.floor(elapsedNs / intervalNs) + 1);
      for (; sent < due; sent += 1) {
        const dueAt = started + BigInt(Math.round(sent * intervalNs));
        pending.push(
          once(agent, port, request)
            .catch(() => 0)
            .then((status) => {
              latencies.push(Number(process.hrtime.bigint() - dueAt) / 1e6);
              if (status !== request.expect) errors += 1;
            }),
        );
      }
      if (sent < total) setTimeout(tick, 1);
      else done();
    };
    tick();
  });
  await Promise.all(pending);
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  agent.destroy();
  return resultOf(latencies, errors, elapsed, cpuSince(cpu));
}

export const ratePerSecond = (r: Result) => r.requests / r.seconds;

/**
 * The numbers of keep-alive connections a side's maximum is looked for at. A route that waits on a
 * database between its CPU bursts (PostgreSQL's round trips) is not saturated by a closed loop of 32:
 * every request of the loop can be waiting at once while the event loop idles, so its "maximum" there is
 * a latency figure. Each side is measured at the count that serves it best, found the same way for all.
 * BENCH_CONNECTIONS (one count, or several separated by commas) replaces the list.
 */
function connectionLevels(): number[] {
  const given = process.env.BENCH_CONNECTIONS;
  if (!given) return [32, 64, 128, 256];
  const levels = given.split(',').map((text) => Number(text.trim()));
  if (levels.some((level) => !Number.isInteger(level) || level < 1)) throw new Error(`BENCH_CONNECTIONS must be whole numbers above 0, separated by commas: ${given}`);
  return levels;
}

/** Read once, when a bench loads: a list BENCH_CONNECTIONS gets wrong stops it before anything runs. */
export const CONNECTION_LEVELS: readonly number[] = connectionLevels();

export type Side = { port: number; request: Request };
/** The connection count a side ran its maximum at, and its rate at each count tried (one second each). */
export type Concurrency = { connections: number; probes: { connections: number; rate: number }[] };

/** After a second's warm-up, one second at each of CONNECTION_LEVELS; the count with the highest rate. */
async function busiestConcurrency(side: Side): Promise<Concurrency & { errors: number }> {
  const probes: { connections: number; rate: number }[] = [];
  let errors = (await closedLoop(side.port, side.request, 1, CONNECTION_LEVELS[0]!)).errors;
  for (const connections of CONNECTION_LEVELS) {
    const result = await closedLoop(side.port, side.request, 1, connections);
    probes.push({ connections, rate: ratePerSecond(result) });
    errors += result.errors;
  }
  const best = probes.reduce((a, b) => (b.rate > a.rate ? b : a));
  return { connections: best.connections, probes, errors };
}

/** How each side's connection count was chosen: "  GET /hello at 64 connections (…, req/s at 32: 7540, 64: 10413, …)". */
function concurrencyLines(subjectLabel: string, concurrency: { subject: Concurrency; bare: Concurrency; bareWithBody: Concurrency }): string {
  const sides: [string, Concurrency][] = [
    [subjectLabel, concurrency.subject],
    ['GET /hello', concurrency.bare],
    ['POST /echo', concurrency.bareWithBody],
  ];
  return sides
    .map(([label, side]) => `  ${label} at ${side.connections} connections (one second each, req/s at ${side.probes.map((probe) => `${probe.connections}: ${probe.rate.toFixed(0)}`).join(', ')})`)
    .join('\n');
}

/**
 * Finds each side's busiest connection count (CONNECTION_LEVELS), then measures each at its maximum
 * for `seconds` in `slices` alternating slices (a change in the machine's load falls on all alike),
 * then the subject and the bare GET at half their own maximum with the open loop. A bare route with
 * the subject's body takes its turn in every slice.
 */
export async function sideBySide(
  subject: Side,
  bare: Side,
  options: { seconds: number; slices: number },
  /** A bare route taking the subject's body (startBare's POST /echo), measured at its maximum in the same slices. */
  bareWithBody: Side,
): Promise<{
  subject: Result;
  bare: Result;
  bareWithBody: Result;
  subjectHalf: Result;
  bareHalf: Result;
  ratio: number;
  subjectErrors: number;
  concurrency: { subject: Concurrency; bare: Concurrency; bareWithBody: Concurrency };
}> {
  const { seconds, slices } = options;
  const bareConcurrency = await busiestConcurrency(bare);
  const withBodyConcurrency = await busiestConcurrency(bareWithBody);
  const subjectConcurrency = await busiestConcurrency(subject);
  const bareSlices: Result[] = [];
  const withBodySlices: Result[] = [];
  const subjectSlices: Result[] = [];
  for (let slice = 0; slice < slices; slice += 1) {
    bareSlices.push(await closedLoop(bare.port, bare.request, seconds / slices, bareConcurrency.connections));
    withBodySlices.push(await closedLoop(bareWithBody.port, bareWithBody.request, seconds / slices, withBodyConcurrency.connections));
    subjectSlices.push(await closedLoop(subject.port, subject.request, seconds / slices, subjectConcurrency.connections));
  }
  const subjectMax = combine(subjectSlices);
  const bareMax = combine(bareSlices);
  const subjectHalf = await openLoop(subject.port, subject.request, ratePerSecond(subjectMax) / 2, seconds);
  const bareHalf = await openLoop(bare.port, bare.request, ratePerSecond(bareMax) / 2, seconds);
  return {
    subject: subjectMax,
    bare: bareMax,
    bareWithBody: combine(withBodySlices),
    subjectHalf,
    bareHalf,
    ratio: ratePerSecond(subjectMax) / ratePerSecond(bareMax),
    /** Unexpected answers of the subject over the whole run, warm-up and probes included. */
    subjectErrors: subjectConcurrency.errors + subjectMax.errors + subjectHalf.errors,
    concurrency: { subject: subjectConcurrency, bare: bareConcurrency, bareWithBody: withBodyConcurrency },
  };
}

/**
 * The bare route the API paths are compared with: Fastify, one GET with a response schema. Beside it,
 * POST /echo: what Fastify alone does with a JSON body (read, parsed, checked to be an object, a small
 * answer serialised), the share of an API path's cost that no code of ours adds; `withBody` gives it
 * as a side of sideBySide, its request made from an API path's (same headers, bodies from the generator given).
 */
export async function startBare(): Promise<{ app: FastifyInstance; port: number; request: Request; withBody(request: Request, body: () => string): Side }> {
  const app = Fastify({ logger: false });
  app.get('/hello', { schema: { response: { 200: { type: 'object', properties: { hello: { type: 'string' } } } } } }, () => ({ hello: 'world' }));
  let echoed = 0;
  app.post(
    '/echo',
    { schema: { body: { type: 'object' }, response: { 200: { type: 'object', properties: { id: { type: 'string' } } } } } },
    () => ({ id: `echo-${++echoed}` }),
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  return {
    app,
    port,
    request: { method: 'GET', path: '/hello', headers: {}, expect: 200 },
    withBody: (request, body) => ({ port, request: { method: 'POST', path: '/echo', headers: request.headers, body, expect: 200 } }),
  };
}

/**
 * What the ratio is made of: a body alone (bare POST /echo ÷ bare GET) caps it, our code takes the rest
 * (API path ÷ POST /echo); the two multiply to the ratio. Also the CPU per request our code adds to
 * Fastify's own handling of the same body.
 */
function bodyShare(figures: { subject: Result; bare: Result; bareWithBody: Result }): string {
  const echo = figures.bareWithBody;
  return (
    `  of the ratio: a body alone ${(ratePerSecond(echo) / ratePerSecond(figures.bare)).toFixed(2)} (POST /echo ÷ GET /hello), ` +
    `our code ${(ratePerSecond(figures.subject) / ratePerSecond(echo)).toFixed(2)} (API path ÷ POST /echo); ` +
    `our code adds ${(cpuPerRequest(figures.subject) - cpuPerRequest(echo)).toFixed(0)} µs CPU per request to ${cpuPerRequest(echo).toFixed(0)}`
  );
}

/**
 * The target in time: at its maximum a route takes 1 ÷ its rate of the event loop per request, so a
 * ratio of `target` allows 1 ÷ (target × GET /hello's rate) a request, of which POST /echo's handling
 * of the body takes 1 ÷ its rate. What is left is all our code may take; beside it, what it takes.
 */
function targetBudget(figures: { subject: Result; bare: Result; bareWithBody: Result }, target: number): string {
  const microsPerRequest = (rate: number) => 1e6 / rate;
  const echo = microsPerRequest(ratePerSecond(figures.bareWithBody));
  const allowed = microsPerRequest(target * ratePerSecond(figures.bare));
  const taken = microsPerRequest(ratePerSecond(figures.subject)) - echo;
  return (
    `  the target (>= ${target.toFixed(2)}) allows ${allowed.toFixed(0)} µs of the event loop a request at the maximum, POST /echo takes ${echo.toFixed(0)} of it: ` +
    `${(allowed - echo).toFixed(0)} µs left for our code, which takes ${taken.toFixed(0)}`
  );
}

export type SideBySideFigures = Awaited<ReturnType<typeof sideBySide>>;

/**
 * The lines an API bench prints for one database: the three sides at their maximum, what the ratio is
 * made of and what the target ratio leaves our code, how each side's connection count was chosen, and
 * the subject and the bare GET at half load. `route` is the API path's method and path, `body` what
 * the echo side took ("the send body"), `target` the ratio the bench aims at.
 */
export function sideBySideLines(route: string, where: string, body: string, target: number, figures: SideBySideFigures): string[] {
  return [
    line(`${route} (${where}), max`, figures.subject),
    line('GET /hello (bare Fastify), max', figures.bare),
    line(`POST /echo, ${body} (bare Fastify), max`, figures.bareWithBody),
    bodyShare(figures),
    targetBudget(figures, target),
    concurrencyLines(route, figures.concurrency),
    line(`${route} (${where}), half load`, figures.subjectHalf),
    line('GET /hello (bare Fastify), half load', figures.bareHalf),
  ];
}

/** The closing line of a database's figures: the ratio and the half-load p99, each beside its target. */
export function verdict(database: string, ratioName: string, targets: { ratio: number; p99Ms: number }, figures: SideBySideFigures): string {
  return (
    `${database}: ratio ${ratioName}/bare ${figures.ratio.toFixed(2)} (target >= ${targets.ratio.toFixed(2)}); ` +
    `p99 at half load ${figures.subjectHalf.p99.toFixed(2)} ms (target < ${targets.p99Ms} ms)`
  );
}

/** CPU time (µs) per request over a measurement, driver and server together. */
function cpuPerRequest(r: Result): number {
  return (r.cpuSeconds / Math.max(1, r.requests)) * 1e6;
}

export function line(label: string, r: Result): string {
  const busy = (r.cpuSeconds / r.seconds) * 100;
  return (
    `${label.padEnd(52)} ${ratePerSecond(r).toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(6)} ms   ` +
    `CPU ${cpuPerRequest(r).toFixed(0).padStart(5)} µs/req (${busy.toFixed(0)} % of a core)   (${r.requests} requests, ${r.errors} unexpected)`
  );
}

/**
 * Where the programs of an HTTP bench ran, for its header: the driver, the relay and the bare route in
 * this one process and event loop, the relay's SQLite statements too; its WAL checkpoints on a thread
 * of their own (relay/src/db/sqlite-dialect.ts); nothing pinned, so every thread may run on any core.
 */
export function processPlacement(): string {
  return (
    'Driver, relay (its SQLite statements included) and bare route share this process and its event loop; the relay\'s SQLite checkpoints run on a thread of their own. ' +
    `Nothing is placed on cores: every thread runs on any of the ${os.availableParallelism()}.`
  );
}
