// `npm run bench -- send`: requests per second and latency of POST /api/messages/send (API key check,
// burst limit, validation, template render, message insert with the sustained/daily counters,
// concurrent sends grouped into one transaction) on SQLite and on PostgreSQL, beside a bare Fastify
// route measured the same way in the same run, printed as a ratio (issue 23, item 6: ratio ≥ 0.60,
// p99 < 10 ms at half the measured maximum). Both servers listen on 127.0.0.1 and are driven over real
// HTTP with keep-alive connections: the maximum by a closed loop in alternating slices, each side at the
// number of connections that serves it best (http-load.ts CONNECTION_LEVELS), the half-load p99 by an
// open loop on a fixed schedule (see http-load.ts). A bare POST /echo taking the send body
// runs in the same slices, to show how much of the ratio a body alone takes. The dispatch worker is off
// (BENCH_WORKERS=1 turns it on) so the figure is the accept path, not .eml writing.
import type { AddressInfo } from 'node:net';
import { buildApp, loadConfig } from '@ledgerwire/relay';
import { forEachDatabase, type BenchDatabase } from './bench-databases.js';
import { benchTenant, sendBody } from './bench-relay-calls.js';
import { CONNECTION_LEVELS, processPlacement, sideBySide, sideBySideLines, startBare, verdict, type Request } from './http-load.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Each side's SECONDS are measured in this many slices, alternating with the other side's. */
const SLICES = 10;
const ADMIN_TOKEN = 'lwop_bench-operator-token-0123456789';
/** Issue 23, item 6. */
const TARGETS = { ratio: 0.6, p99Ms: 10 };

async function startRelay(database: BenchDatabase) {
  const config = loadConfig({
    ...database.env,
    LOG_LEVEL: 'silent',
    RELAY_ADMIN_TOKEN: ADMIN_TOKEN,
    RELAY_WORKERS: process.env.BENCH_WORKERS === '1' ? '1' : '0',
  });
  const app = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const { apiKey } = await benchTenant(port, ADMIN_TOKEN, 1);
  return { app, port, apiKey };
}

async function benchOn(database: BenchDatabase, bare: Awaited<ReturnType<typeof startBare>>): Promise<void> {
  const relay = await startRelay(database);
  try {
    let counter = 0;
    const send: Request = {
      method: 'POST',
      path: '/api/messages/send',
      headers: { authorization: `Bearer ${relay.apiKey}`, 'content-type': 'application/json' },
      body: () => sendBody(++counter),
      expect: 200,
    };
    let echoed = 0;
    const echo = bare.withBody(send, () => sendBody(++echoed));
    const figures = await sideBySide({ port: relay.port, request: send }, bare, { seconds: SECONDS, slices: SLICES }, echo);
    process.stdout.write(
      [
        ...sideBySideLines('POST /api/messages/send', `relay, ${database.label}`, 'the send body', TARGETS.ratio, figures),
        verdict(database.label, 'send', TARGETS, figures),
      ].join('\n') + '\n',
    );
  } finally {
    await relay.app.close();
  }
}

export async function run(): Promise<void> {
  const bare = await startBare();
  try {
    process.stdout.write(
      `Send path vs bare Fastify, ${SECONDS} s each in ${SLICES} alternating slices, each at the number of keep-alive connections (of ${CONNECTION_LEVELS.join(', ')}) that serves it best; ` +
        `then ${SECONDS} s each at half its own maximum (open loop). ${processPlacement()} Node ${process.version}\n`,
    );
    await forEachDatabase('bench-send-', (database) => benchOn(database, bare));
  } finally {
    await bare.app.close();
  }
}
