// The programs of one customer's installation, each a real child process started from its own CLI:
// the books emulator (demo seed), the relay (SQLite under a temporary DATA_DIR) and an enrolled,
// paired connector. The fault matrix kills, freezes and restarts them and reads the outcome from
// the relay's API and the books' control API, never from inside a process.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventually } from '@ledgerwire/test-kit';
import { systemFreePort } from '../demo/demo-ports.js';
import { runProgram, stopAll, waitForStdout, type ManagedProcess } from '../demo/demo-processes.js';
import { journalDocument, requestJson, startProgram } from '../support/installation-programs.js';

export const BOOKS_COMPANY = 'Ledgerwire Demo Traders';
const OPERATOR_TOKEN = 'lwop_fault-matrix-operator-token-0123456789';

/** Short intervals so each fault is noticed and recovered from in seconds, not minutes. */
const RELAY_ENV = {
  CONNECTOR_HEARTBEAT_MS: '1000',
  CONNECTOR_LEASE_MS: '8000',
  CONNECTOR_OFFLINE_GRACE_MS: '2000',
  CONNECTOR_CLAIM_INTERVAL_MS: '500',
  BRIDGE_LEASE_REAPER_INTERVAL_MS: '1000',
  BRIDGE_RATE_LIMIT_PER_MINUTE: '100000',
  BRIDGE_MAX_RETRIES: '50',
  LOG_LEVEL: 'warn',
  // Relays sharing a database share the key that seals webhook secrets (README, several relays).
  RELAY_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
};
const CONNECTOR_ENV = {
  LEDGERWIRE_RECONNECT_BASE_MS: '100',
  LEDGERWIRE_RECONNECT_CAP_MS: '1000',
  LEDGERWIRE_BOOKS_TIMEOUT_MS: '4000',
  LEDGERWIRE_PRESENCE_INTERVAL_MS: '500',
  LEDGERWIRE_BOOKS_STOP_CONFIRM_MS: '500',
  LEDGERWIRE_SYNC_INTERVAL_MS: '600000',
};

type Transaction = { transaction_id: string; job_id: string; status: string; error_code?: string | null; error_message?: string | null };
export type BooksVoucher = { remoteId: string | null; voucherNumber: string | null; narration: string; isCancelled: boolean };

export type ClusterOptions = Readonly<{
  /** PostgreSQL for every relay; SQLite (one relay) when absent. */
  databaseUrl?: string;
  /** Relays sharing the database; the connector dials the first. */
  relays?: number;
  /** The connector's wall clock offset from the relay's, as libfaketime writes it (`+3h`, `-90m`). */
  connectorClock?: string;
}>;

export class FaultCluster {
  readonly root = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-fault-matrix-'));
  private emulator: ManagedProcess | undefined;
  private readonly relays: (ManagedProcess | undefined)[] = [];
  private relayPorts: number[] = [];
  private connector: ManagedProcess | undefined;
  private nextRelay = 0;
  /** Programs that ended without being told to, with the end of their output. */
  readonly unexpectedExits: string[] = [];
  /** Which relay a fault kills next (faults that alternate between relays). */
  nextKill = 0;
  relayUrl = '';
  controlUrl = '';
  booksUrl = '';
  credential = '';
  companyId = 0;
  companyGuid = '';
  constructor(private readonly options: ClusterOptions = {}) {}

  async start(): Promise<void> {
    const [booksPort, controlPort] = [await systemFreePort(), await systemFreePort()];
    this.emulator = startProgram('emulator', 'emulator', [
      '--port', String(booksPort), '--control-port', String(controlPort), '--data', path.join(this.root, 'books'), '--seed', 'demo',
    ]);
    [, this.booksUrl = '', this.controlUrl = ''] = await waitForStdout(this.emulator, /XML on (http:\S+), control API on (http:\S+),/, 60_000);
    for (let i = 0; i < (this.options.relays ?? 1); i++) this.relayPorts.push(await systemFreePort());
    this.relayUrl = this.urlOf(0);
    for (let i = 0; i < this.relayPorts.length; i++) await this.startRelay(i);
    await this.provision();
    const companies = await this.books<{ guid: string; name: string }[]>('GET', '/companies');
    this.companyGuid = companies.find((c) => c.name === BOOKS_COMPANY)?.guid ?? '';
    const common = ['--data', path.join(this.root, 'connector')];
    const token = this.customerToken;
    await runProgram('connector', ['enroll', ...common, '--relay', this.relayUrl, '--token', token, '--books', this.booksUrl, '--name', 'fault-pc']);
    await runProgram('connector', ['pair', ...common, '--company-id', String(this.companyId), '--books-company', BOOKS_COMPANY]);
    await this.startConnector();
  }

  private customerToken = '';

  get relayCount(): number {
    return this.relayPorts.length;
  }

  private urlOf(index: number): string {
    return `http://127.0.0.1:${this.relayPorts[index]}`;
  }

  async startRelay(index = 0): Promise<void> {
    const relay = startProgram(`relay ${index + 1}`, 'relay', [], {
      ...RELAY_ENV,
      PORT: String(this.relayPorts[index]),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(this.root, `relay-${index + 1}`),
      RELAY_ADMIN_TOKEN: OPERATOR_TOKEN,
      PUBLIC_URL: this.urlOf(index),
      ...(this.options.databaseUrl ? { DATABASE_URL: this.options.databaseUrl } : {}),
    });
    this.relays[index] = relay;
    relay.child.once('exit', (code, signal) => {
      if (signal !== 'SIGKILL' && signal !== 'SIGTERM') this.unexpectedExits.push(`${relay.name} exited (${code ?? signal}):\n${relay.output().slice(-4000)}`);
    });
    await waitForStdout(relay, /^Ledgerwire relay listening on /m, 60_000);
  }

  async startConnector(): Promise<void> {
    this.connector = startProgram('connector', 'connector', ['run', '--data', path.join(this.root, 'connector')], CONNECTOR_ENV, this.options.connectorClock === undefined ? {} : { clock: this.options.connectorClock });
    await waitForStdout(this.connector, /"ui_url"/, 60_000);
    await this.waitUntilConnected();
  }

  async waitUntilConnected(): Promise<void> {
    await eventually(
      'the connector online with the books company open',
      async () => {
        const health = await this.api<{ connector: { online: boolean }; books: { running: boolean; company_open: boolean } }>(
          'GET', `/api/v1/companies/${this.companyId}/health?company_id=${this.companyId}`,
        );
        return health.connector.online && health.books.running && health.books.company_open ? true : undefined;
      },
      { timeoutMs: 60_000 },
    );
  }

  private async provision(): Promise<void> {
    const { application } = await this.operator<{ application: { id: string } }>('POST', '/admin/v1/applications', { name: 'Fault matrix' });
    const key = await this.operator<{ credential: string }>('POST', `/admin/v1/applications/${application.id}/keys`, { environment: 'test' });
    this.credential = key.credential;
    const { customer } = await this.api<{ customer: { id: number | string; token: string } }>('POST', '/api/v1/customers', { name: 'Fault Traders' });
    const company = await this.api<{ company_id: number }>('POST', '/api/v1/companies', { name: 'Fault Traders — books' });
    await this.api('POST', `/api/v1/companies/${company.company_id}/customer`, { customer_id: customer.id });
    this.companyId = company.company_id;
    this.customerToken = customer.token;
  }

  /** Posts one journal; resolves true when the relay accepted it (a refused or unanswered post is retried by the caller). */
  async postJournal(tag: string): Promise<boolean> {
    const body = journalDocument(tag, `fault matrix ${tag}`);
    // Round robin over the relays, as a load balancer would; a relay that is down answers nothing.
    const relay = this.urlOf(this.nextRelay++ % this.relayPorts.length);
    const response = await fetch(`${relay}/api/v1/journals?company_id=${this.companyId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.credential}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    }).catch(() => undefined);
    return response !== undefined && response.status === 200;
  }

  async transactions(): Promise<Transaction[]> {
    const all: Transaction[] = [];
    for (let offset = 0; ; offset += 500) {
      const page = await this.api<{ total: number; transactions: Transaction[] }>('GET', `/api/v1/transactions?company_id=${this.companyId}&limit=500&offset=${offset}`);
      all.push(...page.transactions);
      if (all.length >= page.total || page.transactions.length === 0) return all;
    }
  }

  async booksVouchers(): Promise<BooksVoucher[]> {
    return this.books<BooksVoucher[]>('GET', `/companies/${this.companyGuid}/vouchers`);
  }

  async booksControl(method: string, pathname: string, body?: unknown): Promise<unknown> {
    return this.books(method, pathname, body);
  }

  kill(which: 'relay' | 'connector', signal: NodeJS.Signals = 'SIGKILL', relayIndex = 0): Promise<void> {
    const program = which === 'relay' ? this.relays[relayIndex] : this.connector;
    if (!program || program.child.exitCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      program.child.once('exit', () => resolve());
      program.child.kill(signal);
    });
  }

  signal(which: 'connector', signal: NodeJS.Signals): void {
    this.connector?.child.kill(signal);
  }

  async stop(): Promise<void> {
    await stopAll([this.emulator, ...this.relays, this.connector].filter((p): p is ManagedProcess => p !== undefined));
    fs.rmSync(this.root, { recursive: true, force: true });
  }

  private async operator<T>(method: string, pathname: string, body?: unknown): Promise<T> {
    return requestJson<T>(`${this.relayUrl}${pathname}`, method, OPERATOR_TOKEN, body);
  }

  private async api<T>(method: string, pathname: string, body?: unknown): Promise<T> {
    return requestJson<T>(`${this.relayUrl}${pathname}`, method, this.credential, body);
  }

  private async books<T>(method: string, pathname: string, body?: unknown): Promise<T> {
    return requestJson<T>(`${this.controlUrl}${pathname}`, method, undefined, body);
  }
}
