// The connector's WebSocket to the relay's gateway: connects with its credential, says hello, keeps
// the link alive with application pings (and drops it after two heartbeats of silence), and reconnects
// with full-jitter exponential backoff. It knows nothing about jobs or sync: the service listens for
// messages and re-reports what the relay has not acknowledged each time a welcome arrives.
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import {
  CONNECTOR_PROTOCOL_VERSION,
  JOB_RUNS_FEATURE,
  MAX_FRAME_BYTES,
  parseServerMessage,
  type ClientMessage,
  type ConnectorBooksState,
  type HelloMessage,
  type ServerMessage,
  type WelcomeMessage,
} from '@ledgerwire/shared';
import { reconnectPolicy, type ReconnectPolicy } from './backoff.js';
import { socketUrl } from './relay-urls.js';
import { unreachableRelay } from './unreachable-relay.js';
import type { Logger } from '../support/logger.js';

export type RelayLinkState = 'connecting' | 'online' | 'offline' | 'stopped';

export type RelayLinkOptions = Readonly<{
  relayUrl: string;
  credential: string;
  connectorVersion: string;
  books: () => ConnectorBooksState;
  /** Outcomes not yet acknowledged, sent in hello so the relay records them before requeuing anything. */
  outbox?: () => NonNullable<HelloMessage['outcomes']>;
  log: Logger;
  reconnectBaseMs: number;
  reconnectCapMs: number;
  random?: () => number;
  /** Heartbeat before the relay states its own in welcome. */
  initialHeartbeatMs?: number;
}>;

type Listener<T> = (value: T) => void;

/** WebSocket close codes after which reconnecting is pointless until a person acts. */
const FATAL_CLOSE_CODES = new Set([4001, 4003]);

export class RelayLink {
  private socket: WebSocket | undefined;
  /** The TCP connection under the WebSocket (from the upgrade answer), to coalesce writes. */
  private tcp: Socket | undefined;
  private corked = false;
  private stateValue: RelayLinkState = 'offline';
  private lastErrorValue: string | null = null;
  private readonly backoff: ReconnectPolicy;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private heartbeatMs: number;
  private lastHeard = 0;
  private welcomeValue: WelcomeMessage | undefined;
  private readonly messageListeners = new Set<Listener<ServerMessage>>();
  private readonly welcomeListeners = new Set<Listener<WelcomeMessage>>();
  private readonly stateListeners = new Set<Listener<RelayLinkState>>();

  constructor(private readonly options: RelayLinkOptions) {
    this.backoff = reconnectPolicy(options.reconnectBaseMs, options.reconnectCapMs, options.random);
    this.heartbeatMs = options.initialHeartbeatMs ?? 25_000;
  }

  get state(): RelayLinkState {
    return this.stateValue;
  }

  get lastError(): string | null {
    return this.lastErrorValue;
  }

  get welcome(): WelcomeMessage | undefined {
    return this.welcomeValue;
  }

  onMessage(listener: Listener<ServerMessage>): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
  }

  /** Called after every welcome: the moment to re-report what the relay has not acknowledged. */
  onWelcome(listener: Listener<WelcomeMessage>): () => void {
    this.welcomeListeners.add(listener);
    return () => this.welcomeListeners.delete(listener);
  }

  onStateChange(listener: Listener<RelayLinkState>): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  start(): void {
    if (this.stateValue === 'stopped' || this.socket) return;
    this.connect();
  }

  /** Sends when the session is ready; false when it is not (the caller keeps the message to resend). */
  send(message: ClientMessage): boolean {
    const socket = this.socket;
    if (this.stateValue !== 'online' || !socket || socket.readyState !== WebSocket.OPEN) return false;
    this.coalesceWrites();
    socket.send(JSON.stringify(message));
    return true;
  }

  /**
   * Messages sent in one turn of the event loop (an ack and a result per job of a run) leave in one
   * write: the TCP socket is corked for the turn. Each stays its own WebSocket frame.
   */
  private coalesceWrites(): void {
    const tcp = this.tcp;
    if (!tcp || this.corked) return;
    this.corked = true;
    tcp.cork();
    process.nextTick(() => {
      this.corked = false;
      tcp.uncork();
    });
  }

  /** Drops the current connection (as a network cut would); the link reconnects by itself. */
  dropConnection(): void {
    this.socket?.terminate();
  }

  async stop(): Promise<void> {
    this.setState('stopped');
    clearTimeout(this.reconnectTimer);
    clearInterval(this.heartbeatTimer);
    const socket = this.socket;
    this.socket = undefined;
    this.tcp = undefined;
    if (!socket || socket.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        socket.terminate();
        resolve();
      }, 2000);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.close(1000, 'connector stopping');
    });
  }

  private setState(state: RelayLinkState): void {
    if (this.stateValue === state || this.stateValue === 'stopped') return;
    this.stateValue = state;
    for (const listener of this.stateListeners) listener(state);
  }

  private connect(): void {
    this.setState('connecting');
    const socket = new WebSocket(socketUrl(this.options.relayUrl), {
      headers: { authorization: `Bearer ${this.options.credential}` },
      perMessageDeflate: false,
      handshakeTimeout: 15_000,
      maxPayload: MAX_FRAME_BYTES,
    });
    this.socket = socket;
    // Set when the relay answered the upgrade with an HTTP status: that says more than the error after it.
    let answered = false;
    socket.on('open', () => {
      this.lastHeard = Date.now();
      const outcomes = this.options.outbox?.().slice(0, 1000) ?? [];
      const hello: HelloMessage = {
        type: 'hello',
        v: CONNECTOR_PROTOCOL_VERSION,
        connector_version: this.options.connectorVersion,
        books: this.options.books(),
        ...(outcomes.length > 0 ? { outcomes } : {}),
        features: [JOB_RUNS_FEATURE],
      };
      socket.send(JSON.stringify(hello));
    });
    socket.on('upgrade', (response) => (this.tcp = response.socket));
    socket.on('message', (data: WebSocket.RawData) => this.handleFrame(data));
    socket.on('ping', () => (this.lastHeard = Date.now()));
    socket.on('unexpected-response', (_request, response) => {
      answered = true;
      this.lastErrorValue =
        response.statusCode === 401 || response.statusCode === 403
          ? 'the relay refused this connector\'s credential (enrol again with a fresh customer token)'
          : `the relay answered HTTP ${response.statusCode} instead of opening the connection`;
      response.resume();
      socket.terminate();
    });
    socket.on('error', (error) => {
      if (!answered) this.lastErrorValue = unreachableRelay(this.options.relayUrl, error);
    });
    socket.on('close', (code, reason) => this.handleClose(socket, code, reason.toString()));
  }

  private handleFrame(data: WebSocket.RawData): void {
    this.lastHeard = Date.now();
    const parsed = parseServerMessage(data as Buffer);
    if (!parsed.ok) {
      this.options.log.warn(`ignored a message from the relay: ${parsed.problem}`);
      return;
    }
    const message = parsed.message;
    if (message.type === 'ping') {
      this.socket?.send(JSON.stringify({ type: 'pong', v: CONNECTOR_PROTOCOL_VERSION, nonce: message.nonce }));
      return;
    }
    if (message.type === 'welcome') {
      this.welcomeValue = message;
      this.heartbeatMs = message.heartbeat_ms;
      this.backoff.connected();
      this.lastErrorValue = null;
      this.startHeartbeat();
      this.setState('online');
      this.options.log.info(`connected to the relay as ${message.connector_id}`);
      for (const listener of this.welcomeListeners) listener(message);
      return;
    }
    if (message.type === 'error') {
      this.lastErrorValue = `the relay said: ${message.message}`;
      this.options.log.warn(`the relay reported ${message.code}: ${message.message}`, message.ref ? { ref: message.ref } : undefined);
    }
    for (const listener of this.messageListeners) listener(message);
  }

  private startHeartbeat(): void {
    clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = setInterval(() => {
      const socket = this.socket;
      if (!socket) return;
      if (Date.now() - this.lastHeard > this.heartbeatMs * 2) {
        this.options.log.warn('the relay has been silent for two heartbeats: reconnecting');
        this.lastErrorValue = 'the relay stopped answering';
        socket.terminate();
        return;
      }
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'ping', v: CONNECTOR_PROTOCOL_VERSION, nonce: randomUUID() }));
    }, Math.max(50, Math.floor(this.heartbeatMs / 2)));
    this.heartbeatTimer.unref();
  }

  private handleClose(socket: WebSocket, code: number, reason: string): void {
    if (this.socket !== socket) return;
    this.socket = undefined;
    this.tcp = undefined;
    clearInterval(this.heartbeatTimer);
    if (this.stateValue === 'stopped') return;
    if (code !== 1000 && code !== 1005 && code !== 1006 && reason) this.lastErrorValue = `the relay closed the connection: ${reason}`;
    this.setState('offline');
    if (FATAL_CLOSE_CODES.has(code)) {
      this.options.log.error(`the relay closed the connection for good (${code} ${reason}); waiting before trying again`);
    }
    const delay = FATAL_CLOSE_CODES.has(code) ? this.options.reconnectCapMs : this.backoff.delayAfterClose(code);
    this.options.log.info(`relay connection lost; trying again in ${Math.round(delay)} ms`);
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }
}
