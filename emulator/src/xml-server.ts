// The XML port, like TallyPrime's: GET / answers the banner, POST / takes an envelope. Requests are
// served one at a time (the next waits, the banner too), a client that disconnects does not cancel
// its work, and "books stopped" means the port is closed (connection refused). A request TallyPrime
// would not answer is acted out: a modal dialog holds the queue (every caller waits, none is answered)
// until it is dismissed through the control API; a crash drops the connection with no reply and closes
// the port. Stopping the books (or a crash) discards the requests still queued, as a dead process would.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { BooksSilence } from './books-silence.js';
import { BusyTime } from './control/busy-time.js';
import type { Faults } from './faults.js';
import { handleRequest, unknownRequest, type HandledRequest } from './request-handler.js';
import { SERVER_RUNNING } from './rules/messages.js';
import type { BooksStore } from './state/books-store.js';
import { decodeRequest, encodeResponse, responseContentType, wantsUtf16 } from './xml/charset.js';

export class XmlServer {
  private server: http.Server | undefined;
  private readonly sockets = new Set<Socket>();
  private queue: Promise<void> = Promise.resolve();
  private boundPort = 0;
  /** Moves on every stop: work queued before it belongs to a dead process and is dropped. */
  private epoch = 0;
  /** Requests read off their sockets and not yet answered (queued, running or held by a dialog). */
  private readonly waiting = new Set<http.ServerResponse>();
  /** How long requests kept the books busy, for the control API (GET /busy). */
  readonly busy = new BusyTime();
  /** The last request TallyPrime would not have answered, for the control API. */
  lastSilence: { kind: BooksSilence['kind']; text: string; companyGuid: string | undefined; at: string } | undefined;

  constructor(
    private readonly store: BooksStore,
    readonly faults: Faults,
    private readonly host: string,
  ) {}

  get port(): number {
    return this.boundPort;
  }

  get running(): boolean {
    return this.server !== undefined;
  }

  async start(port: number): Promise<void> {
    if (this.server) return;
    const server = http.createServer((req, res) => this.accept(req, res));
    server.keepAliveTimeout = 1000;
    server.on('connection', (socket) => {
      // Answers are written in one piece; without this, Nagle + delayed ACK add ~40 ms per request.
      socket.setNoDelay(true);
      this.busy.connection();
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.boundPort || port, this.host, () => resolve());
    });
    this.boundPort = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Requests waiting for an answer (their clients still connected). */
  get waitingCount(): number {
    return this.waiting.size;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.epoch += 1;
    // A stopped process shows no dialog any more; the request it held is let go (and finds its epoch gone).
    this.faults.dismissDialog();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    // Busy from now until the answer is out (or the connection gone) and the work for it is done: a
    // client that gives up does not end the work, nor the work an answer still being written.
    const endBusy = this.busy.begin();
    let answered = false;
    let working = false;
    const maybeEndBusy = () => {
      if (answered && !working) endBusy();
    };
    res.once('close', () => {
      answered = true;
      maybeEndBusy();
    });
    // A client that goes away mid-request is simply not answered; it must not take the server down.
    req.on('error', () => req.socket.destroy());
    res.on('error', () => res.destroy());
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const epoch = this.epoch;
      this.waiting.add(res);
      // A client that gives up is forgotten here; its request is still served (TallyPrime does not cancel).
      res.on('close', () => this.waiting.delete(res));
      working = true;
      this.enqueue(async () => {
        try {
          if (epoch !== this.epoch) {
            res.destroy();
            return;
          }
          await this.serve(req, res, body);
        } finally {
          working = false;
          maybeEndBusy();
        }
      });
    });
  }

  /** Runs work in the request queue, so control actions (reset) never interleave with a request. */
  exclusive<T>(work: () => T | Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.enqueue(async () => {
        try {
          resolve(await work());
        } catch (error) {
          reject(error);
        }
      });
    });
  }

  /** One request at a time: each waits for the one before it, whatever its outcome. */
  private enqueue(work: () => Promise<void>): void {
    this.queue = this.queue.then(work).catch((error: unknown) => {
      console.error('emulator: request failed', error);
    });
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): Promise<void> {
    if (this.faults.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.faults.latencyMs));
    if (this.faults.take('stall-next') || this.faults.isStalled()) await this.faults.stall();
    const contentType = req.headers['content-type'];
    if (req.method !== 'POST') {
      const utf16 = wantsUtf16(contentType);
      this.reply(res, `<RESPONSE>${SERVER_RUNNING}</RESPONSE>\r\n`, utf16);
      return;
    }
    const decoded = decodeRequest(body, contentType);
    let handled: HandledRequest;
    try {
      handled = decoded.text === undefined ? unknownRequest() : handleRequest(this.store, decoded.text, (guid) => this.companyFault(guid));
    } catch (error) {
      // A defect in the emulator must not look like a TallyPrime answer; it is logged and refused.
      console.error('emulator: unexpected failure', error);
      handled = unknownRequest();
    }
    if (handled.silence) {
      await this.actOut(handled.silence, handled.companyGuid, res);
      return;
    }
    if (handled.kind === 'import' && this.faults.take('hang-after-import')) {
      this.faults.hang();
      req.socket.destroy();
      return;
    }
    if (handled.kind === 'import' && this.faults.take('drop-after-import')) {
      req.socket.destroy();
      return;
    }
    let text = handled.body;
    if (handled.kind === 'import' && this.faults.take('cut-import-answer')) text = text.slice(0, Math.floor(text.length / 2));
    if (handled.kind === 'export' && this.faults.take('truncate-export', handled.id)) text = text.slice(0, Math.floor(text.length / 2));
    this.reply(res, text, decoded.utf16);
  }

  private companyFault(guid: string): ReturnType<Faults['companyFault']> {
    const kind = this.faults.companyFault(guid);
    if (kind === 'crash') this.faults.takeCompanyCrash(guid);
    return kind;
  }

  /**
   * What TallyPrime does instead of answering. A dialog holds this request, and with it the queue, until
   * dismissed; the request is then closed unanswered (what TallyPrime sends after the click is not
   * recorded), and a dialog that ends TallyPrime stops the books. A crash drops the connection at once
   * (an empty reply) and stops the books.
   */
  private async actOut(silence: BooksSilence, companyGuid: string | undefined, res: http.ServerResponse): Promise<void> {
    this.lastSilence = { kind: silence.kind, text: silence.dialog, companyGuid, at: new Date().toISOString() };
    if (silence.kind === 'modal-dialog') {
      const epoch = this.epoch;
      await this.faults.openDialog(silence, companyGuid);
      res.destroy();
      if (silence.exitsOnDismiss && epoch === this.epoch) await this.stop();
      return;
    }
    res.destroy();
    await this.stop();
  }

  private reply(res: http.ServerResponse, text: string, utf16: boolean): void {
    if (res.destroyed) return;
    this.waiting.delete(res);
    const bytes = encodeResponse(text, utf16);
    res.writeHead(200, { 'Content-Type': responseContentType(utf16), 'Content-Length': bytes.length });
    res.end(bytes);
  }
}
