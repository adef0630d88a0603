// `npm run demo`: the books emulator (demo seed), the relay and a connector, enrolled and paired,
// so a newcomer sees a voucher land in the books within a minute. Prints the console URL with the
// operator token and a ready curl; Ctrl-C stops all three.
//   npm run demo -- [--relay-port 8080] [--books-port 9000] [--control-port 9001] [--data ./data/demo] [--keep-data]
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { curlLine, demoInvoice } from './demo-invoice.js';
import { repositoryRoot, runProgram, startProgram, stopAll, waitFor, type ManagedProcess } from './demo-processes.js';

const DEMO_BOOKS_COMPANY = 'Ledgerwire Demo Traders';

const { values: flags } = parseArgs({
  options: {
    'relay-port': { type: 'string', default: '8080' },
    'books-port': { type: 'string', default: '9000' },
    'control-port': { type: 'string', default: '9001' },
    data: { type: 'string', default: path.join(repositoryRoot, 'data/demo') },
    'keep-data': { type: 'boolean', default: false },
  },
});

const relayUrl = `http://127.0.0.1:${flags['relay-port']}`;
const booksUrl = `http://127.0.0.1:${flags['books-port']}`;
const controlUrl = `http://127.0.0.1:${flags['control-port']}`;
const dataDir = path.resolve(flags.data);
const operatorToken = `lwop_demo_${randomBytes(24).toString('base64url')}`;
const processes: ManagedProcess[] = [];

async function json<T>(method: string, url: string, token: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url} → ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

function step(text: string): void {
  process.stdout.write(`• ${text}\n`);
}

async function startBooksAndRelay(): Promise<void> {
  const emulator = startProgram('emulator', 'emulator/src/cli.ts', [
    '--port', String(flags['books-port']), '--control-port', String(flags['control-port']),
    '--data', path.join(dataDir, 'emulator'), '--seed', 'demo',
  ]);
  processes.push(emulator);
  await waitFor('the books emulator', async () => ((await fetch(booksUrl)).ok ? true : undefined), { timeoutMs: 60_000, process: emulator });
  step(`books emulator (TallyPrime XML) at ${booksUrl}, control API at ${controlUrl}`);

  const relay = startProgram('relay', 'relay/src/server.ts', [], {
    PORT: String(flags['relay-port']),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(dataDir, 'relay'),
    RELAY_ADMIN_TOKEN: operatorToken,
    PUBLIC_URL: relayUrl,
    LOG_LEVEL: 'warn',
    // The demo's webhook receivers, if any, live on this machine.
    WEBHOOK_ALLOW_PRIVATE_URLS: '1',
  });
  processes.push(relay);
  await waitFor('the relay', async () => ((await fetch(`${relayUrl}/readyz`)).ok ? true : undefined), { timeoutMs: 60_000, process: relay });
  step(`relay at ${relayUrl} (SQLite under ${path.relative(process.cwd(), path.join(dataDir, 'relay')) || '.'})`);
}

type Provisioned = { credential: string; companyId: number; customerToken: string };

async function provision(): Promise<Provisioned> {
  const { application } = await json<{ application: { id: string } }>('POST', `${relayUrl}/admin/v1/applications`, operatorToken, { name: 'Demo product' });
  const key = await json<{ credential: string }>('POST', `${relayUrl}/admin/v1/applications/${application.id}/keys`, operatorToken, {
    environment: 'test',
    capabilities: ['pull.master', 'report.stock', 'report.gst'],
  });
  const { customer } = await json<{ customer: { id: number | string; token: string } }>('POST', `${relayUrl}/api/v1/customers`, key.credential, { name: 'Demo Traders' });
  const company = await json<{ company_id: number }>('POST', `${relayUrl}/api/v1/companies`, key.credential, { name: 'Demo Traders — books' });
  await json('POST', `${relayUrl}/api/v1/companies/${company.company_id}/customer`, key.credential, { customer_id: customer.id });
  step(`application, test key, customer and company ${company.company_id} created`);
  return { credential: key.credential, companyId: company.company_id, customerToken: customer.token };
}

async function connect(provisioned: Provisioned): Promise<void> {
  const connectorData = path.join(dataDir, 'connector');
  const common = ['--data', connectorData];
  await runProgram('connector/src/cli.ts', ['enroll', ...common, '--relay', relayUrl, '--token', provisioned.customerToken, '--books', booksUrl, '--name', 'demo-pc']);
  await runProgram('connector/src/cli.ts', ['pair', ...common, '--company-id', String(provisioned.companyId), '--books-company', DEMO_BOOKS_COMPANY]);
  const connector = startProgram('connector', 'connector/src/cli.ts', ['run', ...common]);
  processes.push(connector);
  await waitFor(
    'the connector to come online with the demo company open',
    async () => {
      const health = await json<{ connector: { online: boolean }; books: { running: boolean; company_open: boolean } }>(
        'GET', `${relayUrl}/api/v1/companies/${provisioned.companyId}/health?company_id=${provisioned.companyId}`, provisioned.credential,
      );
      return health.connector.online && health.books.running && health.books.company_open ? true : undefined;
    },
    { timeoutMs: 60_000, process: connector },
  );
  step(`connector enrolled and paired: company ${provisioned.companyId} ↔ "${DEMO_BOOKS_COMPANY}" in the books`);
}

async function main(): Promise<void> {
  if (!flags['keep-data']) fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  process.stdout.write('Starting the Ledgerwire demo…\n');
  await startBooksAndRelay();
  const provisioned = await provision();
  await connect(provisioned);

  const invoiceUrl = `${relayUrl}/api/v1/invoices?company_id=${provisioned.companyId}`;
  process.stdout.write(
    [
      '',
      'Ready.',
      `  Console:  ${relayUrl}/console#token=${operatorToken}`,
      `  API docs: ${relayUrl}/docs`,
      `  Booked vouchers (emulator control API): ${controlUrl}/companies`,
      '',
      'Post an invoice the demo books accept:',
      curlLine(invoiceUrl, provisioned.credential, demoInvoice(new Date(), 1)),
      '',
      `Then read its transaction: curl -sS '${relayUrl}/api/v1/transactions/demo-invoice-1?company_id=${provisioned.companyId}' -H 'Authorization: Bearer ${provisioned.credential}'`,
      '',
      'Press Ctrl-C to stop the relay, the connector and the emulator.',
      '',
    ].join('\n'),
  );
}

let stopping = false;
async function shutdown(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  process.stdout.write('\nStopping the demo…\n');
  await stopAll(processes);
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

main().catch(async (error: unknown) => {
  process.stderr.write(`Demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
  await shutdown(1);
});
