// `npm run bench -- bridge-write`: requests per second and latency of POST /api/v1/invoices (credential
// check, per-key request budget, authorisation chain key → application → customer → company, the
// invoice's validation, its import XML rendered, the job and its document persisted) beside a bare
// Fastify route measured the same way in the same run, on SQLite and on PostgreSQL (issue 23, item 2:
// ratio ≥ 0.40, p99 < 25 ms at half the measured maximum). The maximum is a closed loop, at the number
// of connections that serves each side best (http-load.ts CONNECTION_LEVELS), in slices alternating
// with the bare route's (and a bare POST /echo's taking an invoice body, to show how much
// of the ratio a body alone takes); the half-load p99 an open loop on a fixed schedule. Each invoice
// has the demo invoice's shape (e2e/demo/demo-invoice.ts) and a transaction_id of its own; the company
// is attached to a customer but paired with no connector, so every write queues — the bench checks
// afterwards that each accepted write is one queued job. The per-key budget is raised for the bench.
// The relay's background loops are off (BENCH_WORKERS=1 turns them on).
import type { AddressInfo } from 'node:net';
import { buildApp, loadConfig } from '@ledgerwire/relay';
import { forEachDatabase, type BenchDatabase } from './bench-databases.js';
import { callJson } from './bench-relay-calls.js';
import { CONNECTION_LEVELS, processPlacement, sideBySide, sideBySideLines, startBare, verdict, type Request } from './http-load.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const SLICES = 10;
const ADMIN_TOKEN = 'lwop_bench-operator-token-0123456789';
/** Issue 23, item 2. */
const TARGETS = { ratio: 0.4, p99Ms: 25 };

async function startRelay(database: BenchDatabase) {
  const config = loadConfig({
    ...database.env,
    LOG_LEVEL: 'silent',
    RELAY_ADMIN_TOKEN: ADMIN_TOKEN,
    RELAY_WORKERS: process.env.BENCH_WORKERS === '1' ? '1' : '0',
    BRIDGE_RATE_LIMIT_PER_MINUTE: '1000000000',
  });
  const app = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const { application } = await callJson(port, ADMIN_TOKEN, 'POST', '/admin/v1/applications', { name: 'Bench Billing' }, 201);
  const { credential } = await callJson(port, ADMIN_TOKEN, 'POST', `/admin/v1/applications/${application.id}/keys`, { environment: 'test', capabilities: [] }, 201);
  const { customer } = await callJson(port, credential, 'POST', '/api/v1/customers', { name: 'Ram & Sons Trading' }, 200);
  const { company_id: companyId } = await callJson(port, credential, 'POST', '/api/v1/companies', { name: 'Ram & Sons FY26', customer_id: customer.id }, 200);
  return { app, port, credential: credential as string, companyId: companyId as number };
}

/** The demo invoice (a GST service invoice), numbered `sequence`. */
function invoice(date: string, run: string, sequence: number) {
  const number = `BENCH-${sequence}`;
  return {
    voucher_number: number,
    voucher_type: 'Sales',
    party_ledger: 'Ram & Sons',
    date,
    narration: 'Consulting services (Ledgerwire bench)',
    transaction_id: `bench-${run}-${sequence}`,
    ledger_entries: [
      { ledger_name: 'Ram & Sons', amount: 1180, is_debit: true, is_party: true, bill_allocations: [{ name: number, bill_type: 'New Ref', amount: 1180 }] },
      { ledger_name: 'Sales - Services', amount: 1000, is_debit: false, is_party: false },
      { ledger_name: 'Output CGST', amount: 90, is_debit: false, is_party: false },
      { ledger_name: 'Output SGST', amount: 90, is_debit: false, is_party: false },
    ],
  };
}

async function benchOn(database: BenchDatabase, bare: Awaited<ReturnType<typeof startBare>>): Promise<void> {
  const relay = await startRelay(database);
  try {
    const date = new Date().toISOString().slice(0, 10);
    const run = Date.now().toString(36);
    let sequence = 0;
    const write: Request = {
      method: 'POST',
      path: `/api/v1/invoices?company_id=${relay.companyId}`,
      headers: { authorization: `Bearer ${relay.credential}`, 'content-type': 'application/json' },
      body: () => JSON.stringify(invoice(date, run, ++sequence)),
      expect: 200,
    };
    let echoed = 0;
    const echo = bare.withBody(write, () => JSON.stringify(invoice(date, `${run}-echo`, ++echoed)));
    const figures = await sideBySide({ port: relay.port, request: write }, bare, { seconds: SECONDS, slices: SLICES }, echo);

    // Every accepted write is one job, queued (the company has no connector): nothing lost, nothing doubled.
    const accepted = sequence - figures.subjectErrors;
    const { queued } = await relay.app.database.db
      .selectFrom('transactions')
      .select((eb) => eb.fn.countAll<number>().as('queued'))
      .where('company_id', '=', relay.companyId)
      .where('status', '=', 'queued')
      .executeTakeFirstOrThrow();

    const out = [
      ...sideBySideLines('POST /api/v1/invoices', `relay, ${database.label}`, 'the invoice body', TARGETS.ratio, figures),
      `${verdict(database.label, 'invoices', TARGETS, figures)}; ` +
        `${Number(queued)} jobs queued for ${sequence} invoices sent${accepted === Number(queued) ? '' : ` (expected ${accepted})`}`,
    ];
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    await relay.app.close();
  }
}

export async function run(): Promise<void> {
  const bare = await startBare();
  try {
    process.stdout.write(
      `Bridge write path vs bare Fastify, ${SECONDS} s each in ${SLICES} alternating slices, each at the number of keep-alive connections (of ${CONNECTION_LEVELS.join(', ')}) that serves it best; ` +
        `then ${SECONDS} s each at half its own maximum (open loop). ${processPlacement()} Node ${process.version}\n`,
    );
    await forEachDatabase('bench-bridge-write-', (database) => benchOn(database, bare));
  } finally {
    await bare.app.close();
  }
}
