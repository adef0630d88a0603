// `npm run bench -- attachments`: memory while many large attachments are accepted and dispatched
// (issue 34). A relay in its own process (attachment-relay-child.ts, SQLite, outbox provider, workers
// on) takes SENDS sends of an ATTACHMENT_MB attachment each, all at once over real HTTP, and
// dispatches them; its peak memory above its idle level is measured twice, side by side: with the
// attachment memory budget (MESSAGING_ATTACHMENT_MEMORY_MB, default 64) and with the budget lifted.
// Printed: each peak, the attachment bytes the load carried, and the ratios. Bounded means the
// budgeted peak stays near the budget however many sends arrive, while the unbudgeted one grows with them.
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchTenant } from './bench-relay-calls.js';

const SENDS = Number(process.env.BENCH_ATTACHMENT_SENDS ?? 24);
const ATTACHMENT_MB = Number(process.env.BENCH_ATTACHMENT_MB ?? 8);
const BUDGET_MB = 64;
const ADMIN_TOKEN = 'lwop_bench-operator-token-0123456789';
const here = path.dirname(fileURLToPath(import.meta.url));
const MB = 1024 * 1024;

type Peak = { rss: number; heap: number; baselineRss: number };

function ask<T>(child: ChildProcess, kind: string): Promise<T> {
  return new Promise((resolve) => {
    const listener = (message: { kind: string } & T) => {
      if (message.kind !== kind) return;
      child.off('message', listener);
      resolve(message);
    };
    child.on('message', listener);
    child.send({ kind });
  });
}

function post(port: number, apiKey: string, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, method: 'POST', path: '/api/messages/send', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'content-length': body.length } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

async function runOnce(budgetMb: number, attachment: string): Promise<{ peak: Peak; idleHeap: number; ms: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-bench-attachments-'));
  const child = fork(path.join(here, 'attachment-relay-child.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, DATA_DIR: dataDir, RELAY_ADMIN_TOKEN: ADMIN_TOKEN, MESSAGING_ATTACHMENT_MEMORY_MB: String(budgetMb), MESSAGING_DISPATCH_INTERVAL_MS: '50' },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  try {
    const { port } = await new Promise<{ port: number }>((resolve) => child.once('message', (m: { port: number }) => resolve(m)));
    const { apiKey } = await benchTenant(port, ADMIN_TOKEN, 1);
    const idle = await ask<Peak>(child, 'reset').then(() => ask<Peak>(child, 'peak'));
    const started = Date.now();
    // The bodies differ only in transaction_id; each is its own Buffer, as each client's would be.
    const statuses = await Promise.all(
      Array.from({ length: SENDS }, (_, i) =>
        post(
          port,
          apiKey,
          Buffer.from(
            JSON.stringify({
              channel: 'email',
              to: 'ada@example.com',
              subject: 'Invoice {{number}}',
              event_key: 'invoice_ready',
              transaction_id: `bench-attachment-${i}`,
              data: { name: 'Ada', number: `INV-${i}`, amount: '1.00' },
              attachments: [{ filename: `invoice-${i}.pdf`, content: attachment, content_type: 'application/pdf' }],
            }),
          ),
        ),
      ),
    );
    if (statuses.some((s) => s !== 200)) throw new Error(`sends answered ${statuses.join(',')}`);
    const outbox = path.join(dataDir, 'outbox');
    for (;;) {
      const written = fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((f) => f.endsWith('.eml')).length : 0;
      if (written === SENDS) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const ms = Date.now() - started;
    return { peak: await ask<Peak>(child, 'peak'), idleHeap: idle.heap, ms };
  } finally {
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.send({ kind: 'stop' });
    });
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  const attachment = Buffer.alloc(ATTACHMENT_MB * MB, 0x25).toString('base64');
  const carried = SENDS * ATTACHMENT_MB;
  process.stdout.write(`attachments: ${SENDS} sends at once, each with a ${ATTACHMENT_MB} MB attachment (${carried} MB in all), accepted and dispatched to the outbox (SQLite)\n`);
  const bounded = await runOnce(BUDGET_MB, attachment);
  const unbounded = await runOnce(99_999, attachment);
  const above = (r: typeof bounded) => (r.peak.heap - r.idleHeap) / MB;
  const rss = (r: typeof bounded) => (r.peak.rss - r.peak.baselineRss) / MB;
  const line = (label: string, r: typeof bounded) =>
    `  ${label.padEnd(26)} peak heap+buffers above idle ${above(r).toFixed(0).padStart(5)} MB   peak RSS above start ${rss(r).toFixed(0).padStart(5)} MB   ${(r.ms / 1000).toFixed(1)} s`;
  process.stdout.write(
    [
      line(`budget ${BUDGET_MB} MB (default)`, bounded),
      line('budget lifted', unbounded),
      `  ratio budgeted / lifted: heap ${(above(bounded) / above(unbounded)).toFixed(2)}, RSS ${(rss(bounded) / rss(unbounded)).toFixed(2)}, time ${(bounded.ms / unbounded.ms).toFixed(2)}`,
      `  budgeted peak per MB of attachments carried: ${(above(bounded) / carried).toFixed(2)} (lifted: ${(above(unbounded) / carried).toFixed(2)})`,
    ].join('\n') + '\n',
  );
}
