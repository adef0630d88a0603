// `npm run bench -- dispatch`: does delivery keep up with acceptance? In one run, on one relay:
//   1. accept: POST /api/messages/send over real HTTP with BENCH_CONNECTIONS keep-alive connections for
//      BENCH_SECONDS (dispatcher off) → messages accepted per second, leaving a backlog;
//   2. drain: the dispatcher alone works the backlog off through the outbox provider (an .eml file per
//      message, as `npm start` does) → messages dispatched per second;
//   3. fairness: a second tenant sends one message when the backlog is at its largest; the bench counts
//      how many of the first tenant's messages went out before it. Its share is one claim's slot per
//      tenant with due messages, so it must leave with the first claim of the first dispatch pass.
// Printed side by side: dispatch/accept (target >= 1.00) and the quiet tenant's wait.
// SQLite by default; BENCH_DATABASE_URL=postgres://… runs the same on PostgreSQL (a fresh schema).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildApp, loadConfig } from '@ledgerwire/relay';
import { freshPostgresSchema } from './bench-databases.js';
import { benchTenant, sendBody } from './bench-relay-calls.js';
import { closedLoop, type Request } from './http-load.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const ADMIN_TOKEN = 'lwop_bench-operator-token-0123456789';
/** The dispatcher's claim size (relay/src/messaging/workers/dispatch/dispatch-worker.ts BATCH). */
const CLAIM_SIZE = 200;

/** Sends as fast as BENCH_CONNECTIONS keep-alive connections allow, for `seconds`. */
async function acceptFor(port: number, apiKey: string, seconds: number): Promise<{ accepted: number; seconds: number; errors: number }> {
  const send: Request = {
    method: 'POST',
    path: '/api/messages/send',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: () => sendBody(++counter),
    expect: 200,
  };
  const result = await closedLoop(port, send, seconds, CONNECTIONS);
  return { accepted: result.requests - result.errors, errors: result.errors, seconds: result.seconds };
}

let counter = 0;

export async function run(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-dispatch-'));
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  const postgres = databaseUrl ? await freshPostgresSchema(databaseUrl) : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RELAY_ADMIN_TOKEN: ADMIN_TOKEN,
    RELAY_WORKERS: '0',
    ...(databaseUrl && postgres ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: postgres.schema } : {}),
  });
  const app = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const dispatchLoop = app.messaging.dispatchLoop;
  try {
    const bulk = await benchTenant(port, ADMIN_TOKEN, 1);
    const quiet = await benchTenant(port, ADMIN_TOKEN, 2);
    const db = app.database.db;
    const queued = async () =>
      Number((await db.selectFrom('msg_messages').select((eb) => eb.fn.countAll().as('n')).where('status', '=', 'queued').executeTakeFirstOrThrow()).n);
    // The loop is not started (workers off), so each runOnce is exactly one pass (of up to
    // MESSAGING_DISPATCH_CLAIMS_PER_PASS claims), as the relay's loop runs them back to back.
    const drain = async () => {
      while ((await queued()) > 0) await dispatchLoop.runOnce();
    };
    await acceptFor(port, bulk.apiKey, 1); // warm-up (JIT, page cache, compiled templates)
    await drain();

    const measuredFrom = new Date().toISOString();
    const accept = await acceptFor(port, bulk.apiKey, SECONDS);
    const quietAnswer = await fetch(`http://127.0.0.1:${port}/api/messages/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${quiet.apiKey}`, 'content-type': 'application/json' },
      body: sendBody(++counter),
    });
    if (quietAnswer.status !== 200) throw new Error(`the quiet tenant's send answered ${quietAnswer.status}`);
    const quietMessageId = ((await quietAnswer.json()) as { message_id: string }).message_id;
    const outbox = path.join(dataDir, 'outbox');
    const before = fs.readdirSync(outbox).length;

    // Drain: the same loop the relay runs, one pass after another until nothing is due.
    const started = process.hrtime.bigint();
    const backlog = accept.accepted + 1;
    await drain();
    const drainSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    const drained = fs.readdirSync(outbox).length - before;
    if (drained !== backlog) throw new Error(`drained ${drained} of ${backlog}`);
    // Which bulk messages left before the quiet tenant's: their updated_at is earlier (one claim
    // records its outcomes together, and claims are recorded in the order they were made).
    const quietRow = await db.selectFrom('msg_messages').select(['id', 'updated_at']).where('id', '=', quietMessageId).executeTakeFirstOrThrow();
    const bulkBeforeQuiet = Number(
      (
        await db
          .selectFrom('msg_messages')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('tenant_id', '=', bulk.id)
          .where('status', '=', 'sent')
          .where('created_at', '>=', measuredFrom)
          .where('updated_at', '<', quietRow.updated_at)
          .executeTakeFirstOrThrow()
      ).n,
    );

    const acceptRate = accept.accepted / accept.seconds;
    const dispatchRate = backlog / drainSeconds;
    const dialect = databaseUrl ? 'PostgreSQL' : 'SQLite';
    process.stdout.write(`Dispatch vs accept on one relay, ${dialect}, outbox provider, ${CONNECTIONS} connections, Node ${process.version}\n`);
    process.stdout.write(`accept:   ${acceptRate.toFixed(0).padStart(6)} messages/s (${accept.accepted} in ${accept.seconds.toFixed(1)} s, ${accept.errors} refused)\n`);
    process.stdout.write(`dispatch: ${dispatchRate.toFixed(0).padStart(6)} messages/s (${backlog} in ${drainSeconds.toFixed(1)} s)\n`);
    process.stdout.write(`ratio dispatch/accept: ${(dispatchRate / acceptRate).toFixed(2)} (target >= 1.00)\n`);
    process.stdout.write(
      `quiet tenant's message (sent last, behind a backlog of ${accept.accepted}): ${bulkBeforeQuiet} of the bulk tenant's went out before it (target: within the first claim, < ${CLAIM_SIZE})\n`,
    );
  } finally {
    await app.close();
    await postgres?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
