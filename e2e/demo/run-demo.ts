// `npm run demo`: the books emulator (demo seed), the relay and a connector, enrolled and paired,
// so a newcomer sees a voucher land in the books within a minute. It runs beside whatever else is on
// the machine: busy usual ports are swapped for free ones, and each program is known by its own
// readiness line (and the relay by this run's operator token), never by a port that happens to answer.
// Prints every address a person needs and a ready curl; Ctrl-C stops all three.
//   npm run demo -- [--relay-port 8080] [--books-port 9000] [--control-port 9001] [--data ./data/demo] [--keep-data]
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { eventually } from '@ledgerwire/test-kit';
import { curlLine, demoInvoice } from './demo-invoice.js';
import { choosePort, type PortChoice } from './demo-ports.js';
import { runProgram, startProgram, stopAll, exitedWhile, waitForStdout, type ManagedProcess } from './demo-processes.js';

const DEMO_BOOKS_COMPANY = 'Ledgerwire Demo Traders';

const { values: flags } = parseArgs({
  options: {
    'relay-port': { type: 'string' },
    'books-port': { type: 'string' },
    'control-port': { type: 'string' },
    data: { type: 'string', default: './data/demo' },
    'keep-data': { type: 'boolean', default: false },
  },
});

// A relative --data is taken from the directory `npm run demo` was typed in (npm names it INIT_CWD).
const invocationDir = process.env['INIT_CWD'] ?? process.cwd();
const dataDir = path.resolve(invocationDir, flags.data);
const operatorToken = `lwop_demo_${randomBytes(24).toString('base64url')}`;
const processes: ManagedProcess[] = [];

type Addresses = { relayUrl: string; booksUrl: string; controlUrl: string };

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

function portNote(what: string, choice: PortChoice): void {
  if (choice.movedFrom !== undefined) step(`port ${choice.movedFrom} is in use (${what}), so this demo uses ${choice.port}`);
}

async function startBooksAndRelay(): Promise<Addresses> {
  const taken = new Set<number>();
  const books = await choosePort(flags['books-port'], 9000, taken);
  taken.add(books.port);
  const control = await choosePort(flags['control-port'], 9001, taken);
  taken.add(control.port);
  portNote('perhaps TallyPrime or another emulator', books);
  portNote('perhaps another emulator', control);
  const emulator = startProgram('emulator', 'emulator', [
    '--port', String(books.port), '--control-port', String(control.port),
    '--data', path.join(dataDir, 'emulator'), '--seed', 'demo',
  ]);
  processes.push(emulator);
  const emulatorReady = await waitForStdout(emulator, /XML on (http:\S+), control API on (http:\S+),/, 60_000);
  const [, booksUrl = '', controlUrl = ''] = emulatorReady;
  step(`books emulator (TallyPrime XML) at ${booksUrl}, control API at ${controlUrl}`);

  const relayPort = await choosePort(flags['relay-port'], 8080, taken);
  portNote('another relay, perhaps `npm start`', relayPort);
  const relayUrl = `http://127.0.0.1:${relayPort.port}`;
  const relay = startProgram('relay', 'relay', [], {
    PORT: String(relayPort.port),
    HOST: '127.0.0.1',
    DATA_DIR: path.join(dataDir, 'relay'),
    RELAY_ADMIN_TOKEN: operatorToken,
    PUBLIC_URL: relayUrl,
    LOG_LEVEL: 'warn',
    // The demo's webhook receivers, if any, live on this machine.
    WEBHOOK_ALLOW_PRIVATE_URLS: '1',
  });
  processes.push(relay);
  await waitForStdout(relay, /^Ledgerwire relay listening on /m, 60_000);
  // This run's operator token opens only the relay this run started.
  await json('GET', `${relayUrl}/admin/v1/whoami`, operatorToken);
  const relayData = path.relative(invocationDir, path.join(dataDir, 'relay'));
  step(`relay at ${relayUrl} (SQLite under ${relayData.startsWith('..') ? path.join(dataDir, 'relay') : relayData})`);
  return { relayUrl, booksUrl, controlUrl };
}

type Provisioned = { credential: string; companyId: number; customerToken: string };

async function provision({ relayUrl }: Addresses): Promise<Provisioned> {
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

/** Enrols and pairs the connector, starts it, and returns its local page's address. */
async function connect({ relayUrl, booksUrl }: Addresses, provisioned: Provisioned): Promise<string> {
  const connectorData = path.join(dataDir, 'connector');
  const common = ['--data', connectorData];
  await runProgram('connector', ['enroll', ...common, '--relay', relayUrl, '--token', provisioned.customerToken, '--books', booksUrl, '--name', 'demo-pc']);
  await runProgram('connector', ['pair', ...common, '--company-id', String(provisioned.companyId), '--books-company', DEMO_BOOKS_COMPANY]);
  const connector = startProgram('connector', 'connector', ['run', ...common]);
  processes.push(connector);
  const [, pageUrl = ''] = await waitForStdout(connector, /"ui_url": "([^"]+)"/, 60_000);
  await eventually(
    'the connector to come online with the demo company open',
    async () => {
      const health = await json<{ connector: { online: boolean }; books: { running: boolean; company_open: boolean } }>(
        'GET', `${relayUrl}/api/v1/companies/${provisioned.companyId}/health?company_id=${provisioned.companyId}`, provisioned.credential,
      );
      return health.connector.online && health.books.running && health.books.company_open ? true : undefined;
    },
    { timeoutMs: 60_000, giveUp: exitedWhile(connector, 'the connector to come online with the demo company open') },
  );
  step(`connector enrolled and paired: company ${provisioned.companyId} ↔ "${DEMO_BOOKS_COMPANY}" in the books`);
  return pageUrl;
}

async function main(): Promise<void> {
  if (!flags['keep-data']) fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  process.stdout.write('Starting the Ledgerwire demo…\n');
  const addresses = await startBooksAndRelay();
  const provisioned = await provision(addresses);
  const connectorPage = await connect(addresses, provisioned);

  const { relayUrl, controlUrl } = addresses;
  const company = `company_id=${provisioned.companyId}`;
  const auth = `-H 'Authorization: Bearer ${provisioned.credential}'`;
  process.stdout.write(
    [
      '',
      'Ready.',
      `  Console (signed in):   ${relayUrl}/console#token=${operatorToken}`,
      `  Connector local page:  ${connectorPage}`,
      `  API docs:              ${relayUrl}/docs`,
      `  Books (emulator control API): ${controlUrl}/companies`,
      `  API key (test):        ${provisioned.credential}`,
      `  Company:               ${provisioned.companyId}`,
      '',
      'Post an invoice the demo books accept:',
      curlLine(`${relayUrl}/api/v1/invoices?${company}`, provisioned.credential, demoInvoice(new Date(), 1)),
      '',
      'Then read its transaction (status "completed" within a second or two):',
      `curl -sS '${relayUrl}/api/v1/transactions/demo-invoice-1?${company}' ${auth}`,
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
