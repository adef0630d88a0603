// A scale-mode installation as real processes: the books emulator, N relays on one PostgreSQL of the
// run's own (ThrowawayPostgres), nginx in front of them with the repository's deployment config, and
// one enrolled, paired connector that knows only the balancer's URL. Every API call goes through the
// balancer too; only the readiness of one relay (during a rolling restart) is asked of the relay itself.
import { eventually, startWebhookCatcher, type WebhookCatcher } from '@ledgerwire/test-kit';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { systemFreePort } from '../demo/demo-ports.js';
import { runProgram, stopAll, exitedWhile, waitForStdout, type ManagedProcess } from '../demo/demo-processes.js';
import { BOOKS_COMPANY, type BooksVoucher } from '../faults/fault-cluster.js';
import { ThrowawayPostgres } from '../faults/throwaway-postgres.js';
import { journalDocument, requestJson, startProgram } from '../support/installation-programs.js';
import { NginxBalancer } from './nginx-balancer.js';

const OPERATOR_TOKEN = 'lwop_load-balancer-operator-token-0123456789';
/** One key for every relay: a secret stored by one (a webhook's signing secret) is read by the others. */
const ENCRYPTION_KEY = randomBytes(32).toString('base64');

/** Short intervals (as the fault matrix uses) so a restart is noticed and recovered from in seconds. */
export const RELAY_ENV = {
  CONNECTOR_HEARTBEAT_MS: '1000',
  CONNECTOR_LEASE_MS: '8000',
  CONNECTOR_OFFLINE_GRACE_MS: '2000',
  CONNECTOR_CLAIM_INTERVAL_MS: '500',
  BRIDGE_LEASE_REAPER_INTERVAL_MS: '1000',
  BRIDGE_RATE_LIMIT_PER_MINUTE: '100000',
  BRIDGE_MAX_RETRIES: '50',
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  SHUTDOWN_TIMEOUT_MS: '20000',
  LOG_LEVEL: 'warn',
} as const;
export const CONNECTOR_ENV = {
  LEDGERWIRE_RECONNECT_BASE_MS: '100',
  LEDGERWIRE_RECONNECT_CAP_MS: '1000',
  LEDGERWIRE_BOOKS_TIMEOUT_MS: '4000',
  LEDGERWIRE_PRESENCE_INTERVAL_MS: '500',
  LEDGERWIRE_SYNC_INTERVAL_MS: '600000',
} as const;

export type Transaction = { transaction_id: string; status: string; error_code?: string | null; retry_count?: number; created_at: string; completed_at: string | null };

export class BalancedCluster {
  readonly root = fs.mkdtempSync(path.join(os.tmpdir(), 'lw-load-balancer-'));
  readonly postgres = new ThrowawayPostgres();
  readonly relayPorts: number[] = [];
  readonly unexpectedExits: string[] = [];
  balancer: NginxBalancer | undefined;
  receiver: WebhookCatcher | undefined;
  private emulator: ManagedProcess | undefined;
  private readonly relays: (ManagedProcess | undefined)[] = [];
  private connector: ManagedProcess | undefined;
  private controlUrl = '';
  private booksUrl = '';
  private credential = '';
  private companyGuid = '';
  companyId = 0;

  constructor(private readonly relayCount: number) {}

  get url(): string {
    return this.balancer?.url ?? '';
  }

  relayAddress(index: number): string {
    return `127.0.0.1:${this.relayPorts[index]}`;
  }

  async start(): Promise<void> {
    await this.postgres.start();
    const [booksPort, controlPort] = [await systemFreePort(), await systemFreePort()];
    this.emulator = startProgram('emulator', 'emulator', [
      '--port', String(booksPort), '--control-port', String(controlPort), '--data', path.join(this.root, 'books'), '--seed', 'demo',
    ]);
    [, this.booksUrl = '', this.controlUrl = ''] = await waitForStdout(this.emulator, /XML on (http:\S+), control API on (http:\S+),/, 60_000);
    for (let i = 0; i < this.relayCount; i++) this.relayPorts.push(await systemFreePort());
    this.balancer = new NginxBalancer(this.relayPorts.map((_, i) => this.relayAddress(i)));
    await this.balancer.start();
    // One after the other: the first runs the migrations, the others find them done.
    for (let i = 0; i < this.relayCount; i++) await this.startRelay(i);
    await this.provision();
    const companies = await requestJson<{ guid: string; name: string }[]>(`${this.controlUrl}/companies`, 'GET');
    this.companyGuid = companies.find((c) => c.name === BOOKS_COMPANY)?.guid ?? '';
    const common = ['--data', path.join(this.root, 'connector')];
    await runProgram('connector', ['enroll', ...common, '--relay', this.url, '--token', this.customerToken, '--books', this.booksUrl, '--name', 'balanced-pc']);
    await runProgram('connector', ['pair', ...common, '--company-id', String(this.companyId), '--books-company', BOOKS_COMPANY]);
    // Its whole log is kept: a stall is explained by the lines around it (connection lost, connected, jobs completed).
    this.connector = startProgram('connector', 'connector', ['run', ...common], CONNECTOR_ENV, { keepChars: 8_000_000 });
    this.watch(this.connector, false);
    await waitForStdout(this.connector, /"ui_url"/, 60_000);
    await eventually('the connector online through the balancer with the books company open', async () => {
      const health = await this.api<{ connector: { online: boolean }; books: { running: boolean; company_open: boolean } }>(
        'GET', `/api/v1/companies/${this.companyId}/health?company_id=${this.companyId}`,
      );
      return health.connector.online && health.books.running && health.books.company_open ? true : undefined;
    }, { timeoutMs: 60_000, giveUp: exitedWhile(this.connector, 'the connector online through the balancer with the books company open') });
  }

  async startRelay(index: number): Promise<void> {
    const relay = startProgram(`relay ${index + 1}`, 'relay', [], {
      ...RELAY_ENV,
      PORT: String(this.relayPorts[index]),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(this.root, `relay-${index + 1}`),
      RELAY_ADMIN_TOKEN: OPERATOR_TOKEN,
      RELAY_ENCRYPTION_KEY: ENCRYPTION_KEY,
      PUBLIC_URL: this.url,
      DATABASE_URL: this.postgres.url,
    });
    this.relays[index] = relay;
    this.watch(relay, true);
    await waitForStdout(relay, /^Ledgerwire relay listening on /m, 60_000);
  }

  /** Graceful stop (SIGTERM, as an orchestrator sends): resolves when the relay has exited, with its exit code. */
  stopRelay(index: number): Promise<number | null> {
    const relay = this.relays[index];
    if (!relay || relay.child.exitCode !== null) return Promise.resolve(relay?.child.exitCode ?? null);
    return new Promise((resolve) => {
      relay.child.once('exit', (code) => resolve(code));
      relay.child.kill('SIGTERM');
    });
  }

  /** The relay's own readiness, asked of the relay directly (not through the balancer). */
  async relayReady(index: number): Promise<boolean> {
    const response = await fetch(`http://${this.relayAddress(index)}/readyz`, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
    return response?.status === 200;
  }

  /** Which relay the balancer sent a readiness probe to (nginx names it; after a retry, the last one). */
  async balancedReadyzAnsweredBy(): Promise<string | undefined> {
    const response = await fetch(`${this.url}/readyz`, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
    if (response?.status !== 200) return undefined;
    await response.text();
    return response.headers.get('x-ledgerwire-relay')?.split(',').at(-1)?.trim();
  }

  /** Posts one journal through the balancer; answers the HTTP status (0 when nothing answered). */
  async postJournal(tag: string): Promise<number> {
    const body = journalDocument(tag, `load balancer ${tag}`);
    const response = await fetch(`${this.url}/api/v1/journals?company_id=${this.companyId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.credential}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    }).catch(() => undefined);
    await response?.text();
    return response?.status ?? 0;
  }

  async transactions(): Promise<Transaction[]> {
    const all: Transaction[] = [];
    for (let offset = 0; ; offset += 500) {
      const page = await this.api<{ total: number; transactions: Transaction[] }>('GET', `/api/v1/transactions?company_id=${this.companyId}&limit=500&offset=${offset}`);
      all.push(...page.transactions);
      if (all.length >= page.total || page.transactions.length === 0) return all;
    }
  }

  booksVouchers(): Promise<BooksVoucher[]> {
    return requestJson<BooksVoucher[]>(`${this.controlUrl}/companies/${this.companyGuid}/vouchers`, 'GET');
  }

  /** What the programs said, for a failure message: each relay's and the connector's output, nginx's error log, the deliveries. */
  async diagnostics(): Promise<string> {
    const parts = [...this.relays, this.connector].map((p) => (p ? `--- ${p.name}:\n${p.output().slice(-3000)}` : ''));
    parts.push(`--- nginx error log:\n${this.balancer?.errorLog().slice(-3000) ?? ''}`);
    const webhooks = await this.api<{ webhooks: { id: string }[] }>('GET', '/api/v1/webhooks').catch(() => ({ webhooks: [] }));
    for (const { id } of webhooks.webhooks) {
      parts.push(`--- deliveries of ${id}:\n${JSON.stringify(await this.api('GET', `/api/v1/webhooks/${id}/deliveries`).catch(String))}`);
    }
    return parts.join('\n');
  }

  /** The connector's log lines stamped between two instants (epoch ms). */
  connectorLogBetween(from: number, to: number): string[] {
    return (this.connector?.output() ?? '').split('\n').filter((line) => {
      const time = Date.parse(/"time":"([^"]+)"/.exec(line)?.[1] ?? '');
      return time >= from && time <= to;
    });
  }

  /** Every delivery of the presence webhook, oldest first: which event, created when. */
  async presenceDeliveries(): Promise<{ event_type: string; created_at: string }[]> {
    const { webhooks } = await this.api<{ webhooks: { id: string }[] }>('GET', '/api/v1/webhooks');
    const all: { event_type: string; created_at: string }[] = [];
    for (const { id } of webhooks) all.push(...(await this.api<{ deliveries: { event_type: string; created_at: string }[] }>('GET', `/api/v1/webhooks/${id}/deliveries?limit=100`)).deliveries);
    return all.sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  /** Stops the connector (SIGTERM): its last session ends, and nginx logs it. */
  stopConnector(): Promise<void> {
    const connector = this.connector;
    if (!connector || connector.child.exitCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      connector.child.once('exit', () => resolve());
      connector.child.kill('SIGTERM');
    });
  }

  async stop(): Promise<void> {
    await stopAll([this.emulator, ...this.relays, this.connector].filter((p): p is ManagedProcess => p !== undefined));
    await this.balancer?.stop();
    await this.receiver?.close();
    this.postgres.stop();
    fs.rmSync(this.root, { recursive: true, force: true });
  }

  private customerToken = '';

  private async provision(): Promise<void> {
    const operator = <T>(method: string, pathname: string, body?: unknown) => requestJson<T>(`${this.url}${pathname}`, method, OPERATOR_TOKEN, body);
    const { application } = await operator<{ application: { id: string } }>('POST', '/admin/v1/applications', { name: 'Load balancer' });
    this.credential = (await operator<{ credential: string }>('POST', `/admin/v1/applications/${application.id}/keys`, { environment: 'test' })).credential;
    // The presence webhooks are subscribed before the connector first connects: every event is seen.
    this.receiver = await startWebhookCatcher({ statuses: [200] });
    await this.api('POST', '/api/v1/webhooks', { url: this.receiver.url(), events: ['connector.online', 'connector.offline'] });
    const { customer } = await this.api<{ customer: { id: number | string; token: string } }>('POST', '/api/v1/customers', { name: 'Balanced Traders' });
    const company = await this.api<{ company_id: number }>('POST', '/api/v1/companies', { name: 'Balanced Traders — books' });
    await this.api('POST', `/api/v1/companies/${company.company_id}/customer`, { customer_id: customer.id });
    this.companyId = company.company_id;
    this.customerToken = customer.token;
  }

  private api<T>(method: string, pathname: string, body?: unknown): Promise<T> {
    return requestJson<T>(`${this.url}${pathname}`, method, this.credential, body);
  }

  private watch(program: ManagedProcess, isRelay: boolean): void {
    program.child.once('exit', (code, signal) => {
      const told = signal === 'SIGTERM' || signal === 'SIGKILL' || (isRelay && code === 0);
      if (!told) this.unexpectedExits.push(`${program.name} exited (${code ?? signal}):\n${program.output().slice(-4000)}`);
    });
  }
}
