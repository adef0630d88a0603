// An in-process connector for tests, built only from the shared protocol: enrols over HTTP, speaks the
// protocol over a real WebSocket (ws) or an in-memory link, and lets a test script each step — hello,
// receive and ack jobs, answer results, send presence and sync batches, drop the connection. Every wait
// is on a message or an event, with a bound that fails the test with what did arrive.
import {
  CONNECTOR_PROTOCOL_VERSION,
  parseServerMessage,
  type ClientMessage,
  type ConnectorBooksState,
  type ConnectorEnrolOut,
  type Frame,
  type ServerMessage,
  type SyncBatchMessage,
} from '@ledgerwire/shared';
import type { FastifyInstance } from 'fastify';
import { call } from '@ledgerwire/test-kit';
import WebSocket from 'ws';

/** The connector's end of a connection. */
export type ConnectorLink = {
  send(text: string): void;
  close(code?: number): void;
  terminate(): void;
  onFrame(handler: (frame: Frame) => void): void;
  onClose(handler: (code: number, reason: string) => void): void;
};

type ServerMessageOf<T extends ServerMessage['type']> = Extract<ServerMessage, { type: T }>;

type Waiter = { match: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void };

const WAIT_LIMIT_MS = 10_000;

export const BOOKS_RUNNING: ConnectorBooksState = {
  running: true,
  product: 'TallyPrime 5.1',
  open_companies: [{ guid: 'books-guid-acme', name: 'Acme Traders' }],
};

export const BOOKS_STOPPED: ConnectorBooksState = { running: false, product: null, open_companies: [] };

export class TestConnector {
  /** Every message received, in order (the test can inspect the whole conversation). */
  readonly received: ServerMessage[] = [];
  /** Frames that did not parse as server messages: a protocol fault of the relay. */
  readonly unparsable: string[] = [];
  private readonly unconsumed: ServerMessage[] = [];
  private readonly waiters: Waiter[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private isClosed = false;
  /** Answer the relay's pings (a live connector does; turn off to play a hung one). */
  answerPings = true;

  constructor(private readonly link: ConnectorLink) {
    let resolveClosed!: (value: { code: number; reason: string }) => void;
    this.closed = new Promise((resolve) => (resolveClosed = resolve));
    link.onFrame((frame) => this.receive(frame));
    link.onClose((code, reason) => {
      this.isClosed = true;
      resolveClosed({ code, reason });
    });
  }

  /** Enrols a machine with the customer token over HTTP. */
  static async enroll(app: FastifyInstance, input: { token: string; machineName: string; version?: string }): Promise<ConnectorEnrolOut> {
    const { body } = await call<ConnectorEnrolOut>(app, 'POST', '/api/v1/connectors/enroll', 200, {
      payload: { token: input.token, machine_name: input.machineName, version: input.version ?? '1.0.0' },
    });
    return body;
  }

  /** Opens a real WebSocket to a listening relay; rejects with the HTTP status when the upgrade is refused. */
  static async connect(baseUrl: string, credential: string | undefined): Promise<TestConnector> {
    const url = `${baseUrl.replace(/^http/, 'ws')}/api/v1/connectors/socket`;
    const socket = new WebSocket(url, { headers: credential === undefined ? {} : { authorization: `Bearer ${credential}` } });
    const connector = new TestConnector(webSocketLink(socket));
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        response.on('end', () => reject(Object.assign(new Error(`upgrade refused: ${response.statusCode} ${body}`), { status: response.statusCode, body })));
      });
      socket.once('error', reject);
    });
    return connector;
  }

  get isOpen(): boolean {
    return !this.isClosed;
  }

  send(message: ClientMessage): void {
    this.link.send(JSON.stringify(message));
  }

  sendRaw(text: string): void {
    this.link.send(text);
  }

  /** The next message of this type (already received and not yet taken, or still to come). */
  next<T extends ServerMessage['type']>(type: T, where: (m: ServerMessageOf<T>) => boolean = () => true): Promise<ServerMessageOf<T>> {
    const match = (m: ServerMessage): boolean => m.type === type && where(m as ServerMessageOf<T>);
    const index = this.unconsumed.findIndex(match);
    if (index >= 0) return Promise.resolve(this.unconsumed.splice(index, 1)[0] as ServerMessageOf<T>);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        const seen = this.received.map((m) => m.type).join(', ') || 'nothing';
        reject(new Error(`no ${type} message arrived within ${WAIT_LIMIT_MS} ms (received: ${seen})`));
      }, WAIT_LIMIT_MS);
      timer.unref();
      const waiter: Waiter = {
        match,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m as ServerMessageOf<T>);
        },
      };
      this.waiters.push(waiter);
    });
  }

  /** Sends hello and waits for welcome. */
  async hello(books: ConnectorBooksState = BOOKS_RUNNING, version = '1.0.0'): Promise<ServerMessageOf<'welcome'>> {
    this.send({ type: 'hello', v: CONNECTOR_PROTOCOL_VERSION, connector_version: version, books });
    return this.next('welcome');
  }

  /** Waits for the next job.assign (optionally of one job) and acknowledges it. */
  async receiveJob(jobId?: string): Promise<ServerMessageOf<'job.assign'>['job']> {
    const assign = await this.next('job.assign', (m) => jobId === undefined || m.job.job_id === jobId);
    this.send({ type: 'job.ack', v: CONNECTOR_PROTOCOL_VERSION, job_id: assign.job.job_id });
    return assign.job;
  }

  async complete(jobId: string, result: { books_voucher_guid?: string; books_master_id?: string; books_alter_id?: string }): Promise<ServerMessageOf<'job.result.ack'>> {
    this.send({ type: 'job.result', v: CONNECTOR_PROTOCOL_VERSION, job_id: jobId, outcome: { status: 'completed', ...result } });
    return this.next('job.result.ack', (m) => m.job_id === jobId);
  }

  async fail(jobId: string, error: { error_code: string; error_label: string; error_message: string }): Promise<ServerMessageOf<'job.result.ack'>> {
    this.send({ type: 'job.result', v: CONNECTOR_PROTOCOL_VERSION, job_id: jobId, outcome: { status: 'failed', ...error } });
    return this.next('job.result.ack', (m) => m.job_id === jobId);
  }

  presence(books: ConnectorBooksState): void {
    this.send({ type: 'presence', v: CONNECTOR_PROTOCOL_VERSION, books });
  }

  /** Sends a sync batch and waits for its sync.ack or for an error naming it. */
  async syncBatch(batch: Omit<SyncBatchMessage, 'type' | 'v'>): Promise<ServerMessageOf<'sync.ack'> | ServerMessageOf<'error'>> {
    this.send({ type: 'sync.batch', v: CONNECTOR_PROTOCOL_VERSION, ...batch } as SyncBatchMessage);
    return Promise.race([
      this.next('sync.ack', (m) => m.batch_id === batch.batch_id),
      this.next('error', (m) => m.ref === batch.batch_id),
    ]);
  }

  /** Cuts the connection without a close handshake (a crash or a pulled cable) and waits until it is down. */
  async drop(): Promise<void> {
    this.link.terminate();
    await this.closed;
  }

  /** Closes politely and waits until it is down. */
  async close(): Promise<{ code: number; reason: string }> {
    this.link.close(1000);
    return this.closed;
  }

  private receive(frame: Frame): void {
    const parsed = parseServerMessage(frame);
    if (!parsed.ok) {
      this.unparsable.push(typeof frame === 'string' ? frame : parsed.problem);
      return;
    }
    const message = parsed.message;
    this.received.push(message);
    if (message.type === 'ping' && this.answerPings) this.send({ type: 'pong', v: CONNECTOR_PROTOCOL_VERSION, nonce: message.nonce });
    const waiter = this.waiters.find((w) => w.match(message));
    if (waiter) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve(message);
      return;
    }
    this.unconsumed.push(message);
  }
}

function webSocketLink(socket: WebSocket): ConnectorLink {
  return {
    send: (text) => socket.send(text),
    close: (code) => socket.close(code),
    terminate: () => socket.terminate(),
    onFrame: (handler) => socket.on('message', (data) => handler(data as Frame)),
    onClose: (handler) => socket.once('close', (code, reason) => handler(code, reason.toString('utf8'))),
  };
}
