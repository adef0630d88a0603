// The connector's side of its conversation with the relay: it dials with this machine's credential,
// says hello with the books' state and the outcomes the relay has not acknowledged, adopts the relay's
// pairings and sync cursors at welcome, and hands on what the relay sends — jobs to the job exchange,
// acknowledgements back to it, sync answers to the sync channel, new pairings to the pairing store.
import type { ClientMessage, ServerMessage, WelcomeMessage } from '@ledgerwire/shared';
import { CONNECTOR_PROTOCOL_VERSION, JOB_RUNS_FEATURE } from '@ledgerwire/shared';
import type { ConnectorConfig } from '../config/load-config.js';
import { RelayLink, type RelayLinkState } from '../relay/relay-link.js';
import { CONNECTOR_VERSION } from '../version.js';
import type { ConnectorParts } from './connector-parts.js';

/** Outcomes a hello carries at most; the rest follow as job results after welcome. */
const HELLO_OUTCOMES = 1000;

export type ConversationHooks = Readonly<{
  changed(): void;
  /** A sync pass may start (after welcome, or when the relay changed the pairings). */
  sync(): void;
}>;

export class RelayConversation {
  private link: RelayLink | undefined;
  /** Outcomes the last hello carried (the relay acknowledges them after welcome). */
  private sentInHello = new Set<string>();

  constructor(
    private readonly parts: ConnectorParts,
    private readonly config: ConnectorConfig,
    private readonly hooks: ConversationHooks,
  ) {}

  /** The link's state, or undefined before it was dialled (not enrolled, or not started). */
  get state(): RelayLinkState | undefined {
    return this.link?.state;
  }

  get lastError(): string | null {
    return this.link?.lastError ?? null;
  }

  get jobRuns(): boolean {
    return this.link?.welcome?.features?.includes(JOB_RUNS_FEATURE) ?? false;
  }

  get dialled(): boolean {
    return this.link !== undefined;
  }

  send(message: ClientMessage): boolean {
    return this.link?.send(message) ?? false;
  }

  /** Tells the relay the books' state now (they started, stopped, or opened other companies). */
  presence(): void {
    this.send({ type: 'presence', v: CONNECTOR_PROTOCOL_VERSION, books: this.parts.presence.booksState() });
  }

  /** Dials the relay this connector is enrolled with (nothing when it is not). */
  connect(): void {
    const enrolment = this.parts.settings.enrolment();
    if (!enrolment) return;
    const link = new RelayLink({
      relayUrl: enrolment.relayUrl,
      credential: enrolment.credential,
      connectorVersion: CONNECTOR_VERSION,
      books: () => this.parts.presence.booksState(),
      outbox: () => {
        const outcomes = this.parts.jobs.outbox().flatMap((job) => (job.outcome ? [{ job_id: job.jobId, outcome: job.outcome }] : [])).slice(0, HELLO_OUTCOMES);
        this.sentInHello = new Set(outcomes.map((o) => o.job_id));
        return outcomes;
      },
      log: this.parts.log,
      reconnectBaseMs: this.config.reconnectBaseMs,
      reconnectCapMs: this.config.reconnectCapMs,
    });
    link.onWelcome((welcome) => this.welcomed(welcome));
    link.onMessage((message) => this.received(message));
    link.onStateChange((state) => {
      if (state !== 'online') this.parts.channel.linkDown();
      this.hooks.changed();
    });
    this.link = link;
    link.start();
  }

  /** Hangs up and dials again (a new enrolment: another relay, or another credential). */
  async redial(): Promise<void> {
    await this.stop();
    this.connect();
  }

  async stop(): Promise<void> {
    const link = this.link;
    this.link = undefined;
    await link?.stop();
  }

  /** A (re)connected session: adopt the relay's pairings and cursors, re-report unacknowledged results. */
  private welcomed(welcome: WelcomeMessage): void {
    const { pairings, syncState, jobs, exchange, runner, log } = this.parts;
    pairings.replaceConfirmed(
      welcome.companies.map((c) => ({ companyId: c.company_id, booksCompanyGuid: c.books_company_guid, booksCompanyName: c.books_company_name })),
    );
    for (const cursor of welcome.sync_cursors) {
      if (syncState.cursor(cursor.company_id, cursor.kind) !== cursor.cursor) syncState.saveCursor(cursor.company_id, cursor.kind, cursor.cursor);
    }
    // The books may have changed between hello and welcome (a presence sent then was not delivered).
    this.presence();
    // Hello carried the outbox (up to HELLO_OUTCOMES); the relay acknowledges those right after welcome.
    // Anything beyond, or settled since, goes as job.result (idempotent at the relay).
    const outbox = jobs.outbox();
    if (outbox.length > 0) log.info(`re-reporting ${outbox.length} job results the relay has not acknowledged`);
    exchange.report(outbox.filter((job) => !this.sentInHello.has(job.jobId)));
    void runner.wake();
    this.hooks.sync();
    this.hooks.changed();
  }

  private received(message: ServerMessage): void {
    const { exchange, channel, pairings } = this.parts;
    switch (message.type) {
      case 'job.assign':
        return exchange.receive([message.job]);
      case 'jobs.assign':
        return exchange.receive(message.jobs);
      case 'job.result.ack':
        return exchange.outcomesAcknowledged([message.job_id]);
      case 'jobs.result.ack':
        return exchange.outcomesAcknowledged(message.acks.map((ack) => ack.job_id));
      case 'sync.ack':
        channel.handleAck(message);
        return;
      case 'pairings':
        pairings.replaceConfirmed(
          message.companies.map((c) => ({ companyId: c.company_id, booksCompanyGuid: c.books_company_guid, booksCompanyName: c.books_company_name })),
        );
        this.hooks.changed();
        this.hooks.sync();
        return;
      case 'error':
        channel.handleError(message);
        return;
      default:
        return;
    }
  }
}
