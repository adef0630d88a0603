// A small connector for browser tests, written from the shared protocol only: enrols with the customer
// token over HTTP, opens the WebSocket, says hello with the books' state, answers pings, acknowledges
// every job it is assigned and reports the outcome the test chooses for it.
import { CONNECTOR_PROTOCOL_VERSION, parseServerMessage, type ClientMessage, type ConnectorBooksState, type ConnectorEnrolOut, type Frame, type ServerMessage, type SyncVoucherItem } from '@ledgerwire/shared';
import WebSocket from 'ws';

type JobAssign = Extract<ServerMessage, { type: 'job.assign' }>['job'];
type JobOutcome = Extract<ClientMessage, { type: 'job.result' }>['outcome'];

const WAIT_LIMIT_MS = 10_000;

export class ProtocolConnector {
  private readonly received: ServerMessage[] = [];
  private readonly listeners = new Set<() => void>();

  private constructor(
    private readonly socket: WebSocket,
    readonly connectorId: string,
    private readonly decide: (job: JobAssign) => JobOutcome,
  ) {
    socket.on('message', (data) => this.receive(data as Frame));
  }

  /** Enrols a machine with the customer token, connects, says hello and waits for the welcome. */
  static async start(input: {
    baseUrl: string;
    customerToken: string;
    machineName: string;
    books: ConnectorBooksState;
    decide: (job: JobAssign) => JobOutcome;
  }): Promise<ProtocolConnector> {
    const enrolment = await fetch(`${input.baseUrl}/api/v1/connectors/enroll`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: input.customerToken, machine_name: input.machineName, version: '1.4.2' }),
    });
    if (enrolment.status !== 200) throw new Error(`enrolment answered ${enrolment.status}: ${await enrolment.text()}`);
    const enrolled = (await enrolment.json()) as ConnectorEnrolOut;
    const socket = new WebSocket(`${input.baseUrl.replace(/^http/, 'ws')}/api/v1/connectors/socket`, {
      headers: { authorization: `Bearer ${enrolled.credential}` },
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
      socket.once('unexpected-response', (_request, response) => reject(new Error(`socket upgrade refused: ${response.statusCode}`)));
    });
    const connector = new ProtocolConnector(socket, enrolled.connector_id, input.decide);
    connector.send({ type: 'hello', v: CONNECTOR_PROTOCOL_VERSION, connector_version: '1.4.2', books: input.books });
    await connector.waitFor('welcome', () => true);
    return connector;
  }

  /** Waits until the relay has the outcome of this job (its job.result.ack arrived). */
  async jobSettled(jobId: string): Promise<void> {
    await this.waitFor('job.result.ack', (m) => 'job_id' in m && m.job_id === jobId);
  }

  /** Sends vouchers pulled from the books for a paired company and waits for the relay's sync.ack. */
  async syncVouchers(companyId: number, items: readonly SyncVoucherItem[]): Promise<void> {
    const batchId = `batch-${companyId}-${this.received.length}`;
    this.send({ type: 'sync.batch', v: CONNECTOR_PROTOCOL_VERSION, batch_id: batchId, company_id: companyId, cursor: String(items.length), kind: 'vouchers', items: [...items] });
    const answer = await Promise.race([
      this.waitFor('sync.ack', (m) => 'batch_id' in m && m.batch_id === batchId),
      this.waitFor('error', (m) => 'ref' in m && m.ref === batchId),
    ]);
    if (answer.type === 'error') throw new Error(`the relay refused the sync batch: ${JSON.stringify(answer)}`);
  }

  /** The job ids the relay has assigned to this connector so far. */
  assignedJobIds(): string[] {
    return this.received.flatMap((m) => (m.type === 'job.assign' ? [m.job.job_id] : []));
  }

  /** Pings the relay and waits for its pong: every frame the relay sent before answering has arrived by then. */
  async roundTrip(): Promise<void> {
    const nonce = `round-trip-${this.received.length}-${Date.now()}`;
    this.send({ type: 'ping', v: CONNECTOR_PROTOCOL_VERSION, nonce });
    await this.waitFor('pong', (m) => 'nonce' in m && m.nonce === nonce);
  }

  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    const closed = new Promise((resolve) => this.socket.once('close', resolve));
    this.socket.close(1000);
    await closed;
  }

  private send(message: ClientMessage): void {
    this.socket.send(JSON.stringify(message));
  }

  private receive(frame: Frame): void {
    const parsed = parseServerMessage(frame);
    if (!parsed.ok) return;
    const message = parsed.message;
    this.received.push(message);
    if (message.type === 'ping') this.send({ type: 'pong', v: CONNECTOR_PROTOCOL_VERSION, nonce: message.nonce });
    if (message.type === 'job.assign') {
      this.send({ type: 'job.ack', v: CONNECTOR_PROTOCOL_VERSION, job_id: message.job.job_id });
      this.send({ type: 'job.result', v: CONNECTOR_PROTOCOL_VERSION, job_id: message.job.job_id, outcome: this.decide(message.job) });
    }
    for (const listener of [...this.listeners]) listener();
  }

  private waitFor(type: ServerMessage['type'], where: (m: ServerMessage) => boolean): Promise<ServerMessage> {
    const find = () => this.received.find((m) => m.type === type && where(m));
    const found = find();
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`no ${type} within ${WAIT_LIMIT_MS} ms (received: ${this.received.map((m) => m.type).join(', ') || 'nothing'})`));
      }, WAIT_LIMIT_MS);
      const check = () => {
        const match = find();
        if (!match) return;
        clearTimeout(timer);
        this.listeners.delete(check);
        resolve(match);
      };
      this.listeners.add(check);
    });
  }
}
