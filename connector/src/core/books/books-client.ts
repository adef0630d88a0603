// HTTP client for the books' XML server (TallyPrime on port 9000, or the emulator). Requests go as
// UTF-16LE with a BOM and `text/xml; charset=utf-16`, which is what makes TallyPrime answer in UTF-16 with
// non-Latin names intact; answers are decoded by their charset and cleaned for a strict XML parser.
// The books serve one request at a time (a second caller only queues behind the first, and an
// abandoned request keeps them busy), so this client sends one at a time too.
import http from 'node:http';
import { TextDecoder } from 'node:util';
import https from 'node:https';
import { StreamingCleaner } from './response-cleaner.js';
import { BooksRequestError, NOT_LISTENING_CODES } from './books-errors.js';
import { createBooksAgent, type BooksAgent } from './books-agent.js';

/**
 * A request already in the bytes the books take (UTF-16LE with a BOM). The job runner encodes the next
 * import while the books work on the current one, so it leaves the moment their answer is in.
 */
export type EncodedBooksRequest = Readonly<{ utf16: Buffer }>;

export function encodeBooksRequest(xml: string): EncodedBooksRequest {
  return { utf16: Buffer.from(`\uFEFF${xml}`, 'utf16le') };
}

export type BooksRequestOptions = Readonly<{
  /** Silence allowed before giving up (ms): before the answer starts, and between its chunks. */
  timeoutMs?: number;
  /** Counts requests per label (e.g. 'probe', 'import', 'export') for status and benchmarks. */
  label?: string;
  /** Called once the whole request is on the connection: the books can start on it. */
  onSent?: () => void;
  /**
   * The request only reads (an export, a report, a probe). A kept connection the books closed while it
   * sat idle can take the request and break before any answer (the keep-alive race: under load the
   * connector may reuse it after the books' idle timeout). Such a request is sent once more on a new
   * connection; one that changes the books never is, since it may have been received.
   */
  readOnly?: boolean;
}>;

export type BooksClientOptions = Readonly<{ url: string; timeoutMs: number }>;

/** Text of the answer arrives in pieces; returning a promise pauses the download until it settles. */
export type TextConsumer = (text: string) => void | Promise<void>;

export class BooksClient {
  private tail: Promise<unknown> = Promise.resolve();
  private inFlight = 0;
  private closed = false;
  private readonly counts = new Map<string, number>();
  private agent: BooksAgent;
  /** Requests under way, on a connection or still waiting for one. */
  private readonly underWay = new Set<http.ClientRequest>();

  constructor(private options: BooksClientOptions) {
    const url = new URL(options.url);
    this.agent = createBooksAgent(url.protocol);
  }

  /**
   * Points the client at other books (TallyPrime on another computer of the office), in the request
   * queue: what was sent before goes to (and is answered by) the books it was sent to, what is sent
   * after goes to the new address.
   */
  retarget(url: string): Promise<void> {
    const switchOver = () => {
      this.agent.destroy();
      this.options = { ...this.options, url };
      this.agent = createBooksAgent(new URL(url).protocol);
    };
    const switched = this.tail.then(switchOver, switchOver);
    this.tail = switched.catch(() => undefined);
    return switched;
  }

  /**
   * What the books say at `GET /` (TallyPrime: "TallyPrime Server is Running"), for support's
   * diagnostics; the failure in words when they say nothing. Outside the request queue: it is read
   * rarely and must not wait behind an import.
   */
  banner(timeoutMs = 5_000): Promise<string> {
    const url = new URL(this.options.url);
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise((resolve) => {
      const request = transport.get(url, { timeout: timeoutMs }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.length < 16 && chunks.push(chunk));
        response.on('end', () => resolve(`HTTP ${response.statusCode}: ${Buffer.concat(chunks).toString('utf8').trim().slice(0, 300)}`));
        response.on('error', (error) => resolve(`the answer broke off (${error.message})`));
      });
      request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
      request.on('error', (error: NodeJS.ErrnoException) => resolve(`no answer: ${error.code ?? error.message}`));
    });
  }

  get url(): string {
    return this.options.url;
  }

  /** True while a request is being sent or answered (the books are busy with it). */
  get busy(): boolean {
    return this.inFlight > 0;
  }

  requestCounts(): Readonly<Record<string, number>> {
    return Object.fromEntries(this.counts);
  }

  /** Sends one XML request and returns the whole cleaned answer. */
  async request(xml: string | EncodedBooksRequest, options: BooksRequestOptions = {}): Promise<string> {
    const parts: string[] = [];
    await this.stream(xml, (text) => void parts.push(text), options);
    return parts.join('');
  }

  /** Sends one XML request and hands the cleaned answer over in pieces, with back-pressure. */
  stream(xml: string | EncodedBooksRequest, consume: TextConsumer, options: BooksRequestOptions = {}): Promise<void> {
    const run = () => this.send(xml, consume, options);
    const result = this.tail.then(run, run);
    this.tail = result.catch(() => undefined);
    return result;
  }

  /**
   * Cuts any request under way (it fails as maybe received) and refuses new ones. The requests are cut
   * one by one, not only their connections: one still waiting for the agent's connection would
   * otherwise be given a new one after the agent was destroyed, and wait out its whole timeout on
   * books that hang.
   */
  close(): void {
    this.closed = true;
    for (const request of this.underWay) request.destroy();
    this.agent.destroy();
  }

  private async send(xml: string | EncodedBooksRequest, consume: TextConsumer, options: BooksRequestOptions): Promise<void> {
    if (this.closed) throw new BooksRequestError('stopping', 'the connector is stopping', false);
    const label = options.label ?? 'request';
    this.counts.set(label, (this.counts.get(label) ?? 0) + 1);
    this.inFlight += 1;
    const body = (typeof xml === 'string' ? encodeBooksRequest(xml) : xml).utf16;
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs;
    try {
      try {
        await this.exchange(body, consume, timeoutMs, options.onSent);
      } catch (error) {
        if (!(options.readOnly && error instanceof StaleKeptConnection) || this.closed) throw error;
        await this.exchange(body, consume, timeoutMs, options.onSent);
      }
    } finally {
      this.inFlight -= 1;
    }
  }

  private exchange(body: Buffer, consume: TextConsumer, timeoutMs: number, onSent?: () => void): Promise<void> {
    const url = new URL(this.options.url);
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise<void>((resolve, reject) => {
      let written = false;
      let answered = false;
      let settled = false;
      const fail = (error: BooksRequestError) => {
        if (settled) return;
        settled = true;
        this.underWay.delete(request);
        request.destroy();
        reject(error);
      };
      const request = transport.request(url, {
        method: 'POST',
        agent: this.agent,
        headers: { 'content-type': 'text/xml; charset=utf-16', 'content-length': body.length, accept: 'text/xml' },
      });
      this.underWay.add(request);
      request.setTimeout(timeoutMs, () =>
        fail(new BooksRequestError('timeout', `the books did not answer within ${Math.round(timeoutMs / 1000)} s`, written)),
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (!written && error.code !== undefined && NOT_LISTENING_CODES.has(error.code)) {
          fail(new BooksRequestError('not_running', `nothing answers at ${this.options.url} (is TallyPrime running with its XML server on?)`, false));
        } else {
          const message = `the connection to the books broke (${error.code ?? error.message})`;
          fail(request.reusedSocket && !answered ? new StaleKeptConnection(message) : new BooksRequestError('connection_lost', message, true));
        }
      });
      request.on('socket', (socket) => {
        // Until the socket connects nothing can have reached the books.
        if (socket.connecting) socket.once('connect', () => (written = true));
        else written = true;
      });
      request.on('response', (response) => {
        answered = true;
        this.agent.lastKeepAliveHint = [response.headers['keep-alive']].flat()[0];
        if (response.statusCode !== 200) {
          response.resume();
          fail(new BooksRequestError('bad_answer', `the books answered HTTP ${response.statusCode}`, true));
          return;
        }
        this.readAnswer(response, consume).then(
          () => {
            if (settled) return;
            settled = true;
            this.underWay.delete(request);
            resolve();
          },
          (error: unknown) => fail(error instanceof BooksRequestError ? error : new BooksRequestError('connection_lost', `the answer broke off (${String(error)})`, true)),
        );
      });
      if (onSent) request.once('finish', onSent);
      request.end(body);
    });
  }

  private async readAnswer(response: http.IncomingMessage, consume: TextConsumer): Promise<void> {
    const cleaner = new StreamingCleaner();
    let decoder: TextDecoder | undefined;
    const declared = /charset\s*=\s*"?([\w-]+)/i.exec(response.headers['content-type'] ?? '')?.[1]?.toLowerCase();
    let complete = false;
    response.once('end', () => (complete = true));
    for await (const chunk of response as AsyncIterable<Buffer>) {
      decoder ??= new TextDecoder(chooseEncoding(declared, chunk));
      const text = cleaner.push(decoder.decode(chunk, { stream: true }));
      if (text) await consume(text);
    }
    if (!complete && !response.complete) throw new BooksRequestError('connection_lost', 'the answer broke off before its end', true);
    const rest = cleaner.push(decoder?.decode() ?? '') + cleaner.flush();
    if (rest) await consume(rest);
  }
}

/** A kept connection that broke before any answer came: maybe received, like any broken connection. */
class StaleKeptConnection extends BooksRequestError {
  constructor(message: string) {
    super('connection_lost', message, true);
  }
}

/** The declared charset wins; otherwise a BOM or the zero high bytes of UTF-16LE text decide. */
function chooseEncoding(declared: string | undefined, first: Buffer): 'utf-16le' | 'utf-8' {
  if (declared === 'utf-16' || declared === 'utf-16le' || declared === 'unicode') return 'utf-16le';
  if (declared === 'utf-8' || declared === 'us-ascii' || declared === 'iso-8859-1') return 'utf-8';
  if (first.length >= 2 && first[0] === 0xff && first[1] === 0xfe) return 'utf-16le';
  if (first.length >= 2 && first[0] !== 0 && first[1] === 0) return 'utf-16le';
  return 'utf-8';
}
