// One connector's connection: the protocol state machine on the relay's side. It waits for hello,
// answers welcome, pushes claimed jobs while it has capacity (at-least-once: a job whose lease ran out
// is claimed and pushed again, the connector deduplicates on job_id; the leases of jobs the connector
// confirmed it stored are renewed while it answers the heartbeat), records results idempotently,
// stores sync batches and confirms their cursors. Frames are handled one at a time, in arrival order.
import { randomUUID } from 'node:crypto';
import {
  booksCompanyOpen,
  CONNECTOR_PROTOCOL_VERSION,
  JOB_RUNS_FEATURE,
  MAX_JOB_RUN,
  parseClientMessage,
  SyncKind,
  type BooksOpenCompany,
  type ClientMessage,
  type Frame,
  type HelloMessage,
  type ProtocolErrorCode,
  type ServerMessage,
  type SyncBatchMessage,
} from '@ledgerwire/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthenticatedConnector } from './enrolment-service.js';
import type { GatewayPairedCompany } from './gateway-ports.js';
import type { SessionServices } from './session-services.js';
import { CloseCode, closeThenCut, type SessionTransport } from './session-transport.js';
import { assignedJob, outcomeReport, pairedOut, refOf, samePairings, type JobOutcomeIn } from './session-frames.js';
import { storeSyncBatch } from './sync-batch-handler.js';

type SessionState = 'awaiting_hello' | 'ready' | 'closed';

export class ConnectorSession {
  readonly sessionId = `cses_${randomUUID()}`;
  private state: SessionState = 'awaiting_hello';
  /** Set when this relay process ends the session on its way down (see endForShutdown). */
  private relayShuttingDown = false;
  /** Set by the close of a session that held no jobs when its relay shut down: the gateway records it, with the others, in one statement. */
  private closeLeftToGateway = false;
  /** Jobs pushed and not yet answered, with their lease end; an expired lease frees the slot. */
  private readonly inFlight = new Map<string, number>();
  /** Of those, the ones the connector confirmed it stored (job.ack): their leases run while it is here. */
  private readonly stored = new Set<string>();
  private renewing: Promise<void> | undefined;
  private companies: readonly GatewayPairedCompany[] = [];
  private booksRunning = false;
  /** The companies open in the books, as the connector last reported them. */
  private openCompanies: readonly BooksOpenCompany[] = [];
  /** The connector asked for job-runs in hello: runs of jobs travel as one message (see the protocol). */
  private jobRuns = false;
  private lastHeardAt: number;
  private lastPingAt = 0;
  private lastRenewalAt = 0;
  /** When this session last wrote last_seen_at for a ping of the connector's own (see recordHeard). */
  private lastHeardWriteAt = 0;
  private inbox: Promise<void> = Promise.resolve();
  /** Frames received and not yet handled; handled in order, a run of job.result together. */
  private arrived: Frame[] = [];
  private claiming: Promise<void> | undefined;
  private claimAgain = false;
  /** Resolves when the close has been handled (requeue and presence written). */
  readonly closed: Promise<void>;
  private resolveClosed!: () => void;

  constructor(
    readonly connector: AuthenticatedConnector,
    private readonly transport: SessionTransport,
    private readonly services: SessionServices,
    private readonly log: FastifyBaseLogger,
    /** Frames wait for this first: the close of the connection this one replaces. */
    after: Promise<void> = Promise.resolve(),
  ) {
    this.inbox = after;
    this.lastHeardAt = services.clock().getTime();
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    transport.onFrame((frame) => {
      this.lastHeardAt = this.services.clock().getTime();
      if (this.arrived.push(frame) === 1) this.inbox = this.inbox.then(() => this.handleArrived());
    });
    transport.onClose(() => {
      this.inbox = this.inbox.then(() => this.handleClose());
    });
  }

  servesCompany(companyId: number): boolean {
    return this.companies.some((c) => c.company_id === companyId);
  }

  /** Past hello and not closed. */
  get ready(): boolean {
    return this.state === 'ready';
  }

  /** Whether any company is paired with the connector (as last read): without one there is nothing to claim. */
  get paired(): boolean {
    return this.companies.length > 0;
  }

  /** Once closed: whether the gateway is to record this session's close (see handleClose). */
  get closeRecordedByGateway(): boolean {
    return this.closeLeftToGateway;
  }

  /** This relay process is shutting down: the jobs the session holds go back without costing a retry. */
  endForShutdown(): void {
    this.relayShuttingDown = true;
    this.end(CloseCode.goingAway, 'the relay is shutting down');
  }

  /** Ends the session from the relay's side (replaced, shutdown); the close handler does the rest. */
  end(code: number, reason: string, errorCode?: ProtocolErrorCode): void {
    if (errorCode) this.send({ type: 'error', v: CONNECTOR_PROTOCOL_VERSION, code: errorCode, message: reason });
    closeThenCut(this.transport, code, reason);
  }

  /**
   * Heartbeat, called four times an interval. The connection is dropped once the connector has been
   * silent for an interval and a half (a pulled cable, a frozen machine: read offline within 45 s with
   * the default interval). A connector that has been quiet for half an interval is pinged, at most once
   * each half interval, so one that is there always answers in time; the real connector pings on its
   * own every half interval, so it is rarely pinged at all. Leases are renewed once an interval.
   */
  heartbeat(heartbeatMs: number): void {
    if (this.state === 'closed') return;
    const now = this.services.clock().getTime();
    const silentFor = now - this.lastHeardAt;
    if (silentFor > heartbeatMs * 1.5) {
      this.log.warn({ connector_id: this.connector.connectorId }, 'connector silent for an interval and a half: dropping the connection');
      this.end(CloseCode.heartbeatTimeout, 'no answer to the heartbeat');
      return;
    }
    if (silentFor >= heartbeatMs / 2 && now - this.lastPingAt >= heartbeatMs / 2) {
      this.lastPingAt = now;
      this.send({ type: 'ping', v: CONNECTOR_PROTOCOL_VERSION, nonce: randomUUID() });
    }
    if (now - this.lastRenewalAt < heartbeatMs) return;
    this.lastRenewalAt = now;
    this.renewing ??= this.renewLeases().finally(() => (this.renewing = undefined));
  }

  /**
   * A lease is there to win back a job from a connector that is gone. One that is here and answers the
   * heartbeat keeps the jobs it confirmed it stored — behind a TallyPrime dialog they may wait an hour,
   * and handing them back would only burn their retries until they failed as "connector offline" while
   * the connector still held them. Each lease is extended once half of it has run.
   */
  private async renewLeases(): Promise<void> {
    if (this.state !== 'ready' || this.stored.size === 0) return;
    const { leaseMs } = this.services.settings;
    const now = this.services.clock().getTime();
    const due = [...this.stored].filter((jobId) => (this.inFlight.get(jobId) ?? 0) - now <= leaseMs / 2);
    if (due.length === 0) return;
    try {
      const { renewed, leaseExpiresAt } = await this.services.jobs.renewLeases(this.connector.connectorId, this.sessionId, due, leaseMs);
      const until = Date.parse(leaseExpiresAt);
      for (const jobId of renewed) if (this.inFlight.has(jobId)) this.inFlight.set(jobId, until);
    } catch (error) {
      this.log.error({ err: error, connector_id: this.connector.connectorId }, 'renewing job leases failed; they run out unless the next heartbeat renews them');
    }
  }

  /**
   * `owner` is the session that owns the connector now, as the gateway read it after this one was
   * ready. Ends this session when a newer connection of the connector said hello on another relay
   * process (this socket is then a half-open leftover that must not claim jobs). True while it still owns it.
   */
  keepIfOwner(owner: string | null | undefined): boolean {
    if (this.state !== 'ready') return false;
    if (owner === this.sessionId) return true;
    this.end(CloseCode.replaced, 'a newer connection of this connector took over', 'replaced');
    return false;
  }

  /** Re-reads the pairings (they change through the API) and tells the connector when they did. */
  async refreshPairings(): Promise<void> {
    if (this.state !== 'ready') return;
    this.pairingsRead(await this.services.companies.findPairedCompanies(this.connector.connectorId));
  }

  /** The pairings as just read (by refreshPairings, or the gateway's pass for many sessions). */
  pairingsRead(fresh: readonly GatewayPairedCompany[]): void {
    if (this.state !== 'ready' || samePairings(fresh, this.companies)) return;
    this.companies = fresh;
    this.send({ type: 'pairings', v: CONNECTOR_PROTOCOL_VERSION, companies: fresh.map(pairedOut) });
  }

  /** Claims jobs up to capacity and pushes them. Concurrent calls coalesce into one more pass. */
  fillCapacity(): Promise<void> {
    // Jobs wait in the queue while the books are stopped (and a company's while it is not open, see
    // claim-jobs.ts): leased to a connector that cannot import, they would only run out their leases and
    // burn retries.
    if (this.state !== 'ready' || !this.booksRunning) return Promise.resolve();
    if (this.claiming) {
      this.claimAgain = true;
      return this.claiming;
    }
    this.claiming = (async () => {
      do {
        this.claimAgain = false;
        await this.claimOnce();
      } while (this.claimAgain && this.state === 'ready');
    })()
      .catch((error: unknown) => this.log.error({ err: error, connector_id: this.connector.connectorId }, 'claiming jobs failed'))
      .finally(() => (this.claiming = undefined));
    return this.claiming;
  }

  private async claimOnce(): Promise<void> {
    const now = this.services.clock().getTime();
    for (const [jobId, leaseEnd] of this.inFlight) {
      if (leaseEnd > now) continue;
      this.inFlight.delete(jobId);
      this.stored.delete(jobId);
    }
    const capacity = this.services.settings.maxInFlight - this.inFlight.size;
    if (capacity <= 0) return;
    const jobs = await this.services.jobs.claimForConnector(this.connector.connectorId, {
      limit: capacity,
      leaseMs: this.services.settings.leaseMs,
      sessionId: this.sessionId,
      companyOpen: (guid) => booksCompanyOpen(this.openCompanies, guid),
    });
    if (this.state !== 'ready') return; // the close handler requeues what was claimed
    for (const job of jobs) this.inFlight.set(job.job_id, Date.parse(job.lease_expires_at));
    if (this.jobRuns) {
      for (let first = 0; first < jobs.length; first += MAX_JOB_RUN) {
        this.send({ type: 'jobs.assign', v: CONNECTOR_PROTOCOL_VERSION, jobs: jobs.slice(first, first + MAX_JOB_RUN).map(assignedJob) });
      }
    } else {
      for (const job of jobs) this.send({ type: 'job.assign', v: CONNECTOR_PROTOCOL_VERSION, job: assignedJob(job) });
    }
    if (jobs.length === capacity) this.claimAgain = true;
  }

  /**
   * Handles the frames that arrived, in order. A connector reports an import request's jobs as a burst
   * of job.result frames; a run of them is recorded in one transaction.
   */
  private async handleArrived(): Promise<void> {
    const frames = this.arrived;
    this.arrived = [];
    let results: JobOutcomeIn[] = [];
    for (const frame of frames) {
      const message = this.parse(frame);
      // Before hello has been handled nothing joins a run: each message is checked against the state.
      if (message?.type === 'job.result' && this.state === 'ready') {
        results.push(message);
        continue;
      }
      if (message?.type === 'jobs.result' && this.state === 'ready') {
        results = results.concat(message.results);
        continue;
      }
      if (results.length > 0) await this.handleResults(results);
      results = [];
      if (message) await this.handleMessage(message);
    }
    if (results.length > 0) await this.handleResults(results);
  }

  /** The frame's message, or undefined after answering a frame that is not one with an error. */
  private parse(frame: Frame): ClientMessage | undefined {
    if (this.state === 'closed') return undefined;
    const parsed = parseClientMessage(frame);
    if (parsed.ok) return parsed.message;
    this.sendError(parsed.code, parsed.problem, parsed.ref ?? null);
    if (parsed.code === 'unsupported_version') this.transport.close(CloseCode.unsupportedVersion, 'unsupported protocol version');
    return undefined;
  }

  private async handleMessage(message: ClientMessage): Promise<void> {
    if (this.state === 'closed') return;
    if (this.state === 'awaiting_hello' && message.type !== 'hello') {
      this.sendError('hello_required', `send hello before ${message.type}`);
      return;
    }
    try {
      await this.dispatch(message);
    } catch (error) {
      this.failed(message, error);
    }
  }

  private failed(message: ClientMessage, error: unknown): void {
    this.log.error({ err: error, connector_id: this.connector.connectorId, message_type: message.type }, 'connector message failed');
    // Not acknowledged: the connector keeps the result or batch and sends it again.
    this.sendError('internal_error', `the relay could not handle ${message.type}; send it again later`, refOf(message));
  }

  private async dispatch(message: ClientMessage): Promise<void> {
    switch (message.type) {
      case 'hello':
        return this.handleHello(message);
      case 'job.ack':
        return this.confirmStored([message.job_id]);
      case 'jobs.ack':
        return this.confirmStored(message.job_ids);
      case 'job.result':
        return this.handleResults([message]);
      case 'jobs.result':
        return this.handleResults(message.results);
      case 'presence':
        this.booksRunning = message.books.running;
        this.openCompanies = message.books.open_companies;
        await this.services.presence.booksChanged(this.connector, message.books);
        return this.fillCapacity();
      case 'sync.batch':
        return this.handleSyncBatch(message);
      case 'ping':
        this.send({ type: 'pong', v: CONNECTOR_PROTOCOL_VERSION, nonce: message.nonce });
        return this.recordHeard();
      case 'pong':
        return this.recordHeard();
      case 'error':
        this.log.warn({ connector_id: this.connector.connectorId, code: message.code, ref: message.ref }, `connector reported: ${message.message}`);
        return;
    }
  }

  private async handleHello(message: HelloMessage): Promise<void> {
    if (this.state === 'ready') {
      this.sendError('malformed_message', 'hello was already received on this connection');
      return;
    }
    const id = this.connector.connectorId;
    this.jobRuns = (message.features ?? []).includes(JOB_RUNS_FEATURE);
    // Outcomes from the connector's outbox first, so a job it finished is not handed out again.
    const outcomes = message.outcomes ?? [];
    const recorded = await this.services.jobs.recordOutcomes(id, outcomes.map(outcomeReport));
    // Jobs still leased to this connector belong to an earlier connection, which is gone: deliver them again.
    await this.services.jobs.requeueConnectorJobs(id);
    this.booksRunning = message.books.running;
    this.openCompanies = message.books.open_companies;
    await this.services.presence.sessionOpened(this.connector, this.sessionId, message.connector_version, message.books);
    this.companies = await this.services.companies.findPairedCompanies(id);
    const cursors = await this.services.cursors.listForCompanies(this.companies.map((c) => c.company_id));
    this.state = 'ready';
    this.send({
      type: 'welcome',
      v: CONNECTOR_PROTOCOL_VERSION,
      connector_id: id,
      session_id: this.sessionId,
      server_time: this.services.clock().toISOString(),
      heartbeat_ms: this.services.settings.heartbeatMs,
      lease_ms: this.services.settings.leaseMs,
      max_in_flight: this.services.settings.maxInFlight,
      features: this.jobRuns ? [JOB_RUNS_FEATURE] : [],
      companies: this.companies.map(pairedOut),
      sync_cursors: cursors.flatMap((c) => {
        const kind = SyncKind.safeParse(c.kind);
        return kind.success ? [{ company_id: c.company_id, kind: kind.data, cursor: c.cursor }] : [];
      }),
    });
    if (outcomes.length > 0) this.sendResultAcks(outcomes, recorded);
    // Pairings were just read: a connector without any has nothing to claim (a whole fleet reconnecting
    // after a relay restart saves a transaction per hello).
    if (this.companies.length > 0) await this.fillCapacity();
  }

  /** Delivery confirmed: the connector stored these jobs; their leases are renewed while it is here. */
  private confirmStored(jobIds: readonly string[]): void {
    for (const jobId of jobIds) if (this.inFlight.has(jobId)) this.stored.add(jobId);
  }

  /**
   * Records a run of results in one transaction, acknowledges each, and refills the freed slots.
   * While the database cannot take them (PostgreSQL restarting, a full disk) the relay keeps trying,
   * holding the frames behind them: the connector sent these results once and will not send them
   * again while this session lasts, so giving up here would leave their jobs processing for ever.
   * If the session ends first they are unacknowledged, and the connector sends them at its next hello.
   */
  private async handleResults(results: readonly JobOutcomeIn[]): Promise<void> {
    if (this.state === 'closed') return;
    let recorded: boolean[] | undefined;
    for (let attempt = 0; recorded === undefined; attempt++) {
      try {
        recorded = await this.services.jobs.recordOutcomes(this.connector.connectorId, results.map(outcomeReport));
      } catch (error) {
        this.log.error({ err: error, connector_id: this.connector.connectorId, results: results.length, attempt }, 'recording job results failed; trying again');
        if (attempt === 0) {
          const what = results.length === 1 ? 'this result' : `these ${results.length} results`;
          this.sendError('internal_error', `the relay could not record ${what} yet; it keeps trying`, results.length === 1 ? results[0]?.job_id : null);
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 100 * 2 ** attempt)));
        // `state` changes while we wait (the socket may close); the cast stops narrowing from the check above.
        if ((this.state as string) === 'closed') return;
      }
    }
    for (const { job_id } of results) {
      this.inFlight.delete(job_id);
      this.stored.delete(job_id);
    }
    this.sendResultAcks(results, recorded);
    // One claim for the run of freed slots, so the connector has its next run at hand when this one is
    // done. Not awaited: the frames behind these need not wait for the claim.
    void this.fillCapacity();
  }

  /** job.result.ack per job, or jobs.result.ack per run with job-runs. */
  private sendResultAcks(results: readonly { job_id: string }[], recorded: readonly boolean[]): void {
    const acks = results.map(({ job_id }, i) => ({ job_id, disposition: recorded[i] === true ? ('recorded' as const) : ('duplicate' as const) }));
    if (!this.jobRuns) {
      for (const ack of acks) this.send({ type: 'job.result.ack', v: CONNECTOR_PROTOCOL_VERSION, ...ack });
      return;
    }
    for (let first = 0; first < acks.length; first += MAX_JOB_RUN) {
      this.send({ type: 'jobs.result.ack', v: CONNECTOR_PROTOCOL_VERSION, acks: acks.slice(first, first + MAX_JOB_RUN) });
    }
  }

  private async handleSyncBatch(message: SyncBatchMessage): Promise<void> {
    if (!this.servesCompany(message.company_id)) await this.refreshPairings();
    if (!this.servesCompany(message.company_id)) {
      this.sendError('company_not_paired', `company ${message.company_id} is not paired with this connector`, message.batch_id);
      return;
    }
    const accepted = await storeSyncBatch(this.services.pulledData, message);
    await this.services.cursors.confirm({
      companyId: message.company_id,
      kind: message.kind,
      connectorId: this.connector.connectorId,
      cursor: message.cursor,
      now: this.services.clock().toISOString(),
    });
    this.send({
      type: 'sync.ack',
      v: CONNECTOR_PROTOCOL_VERSION,
      batch_id: message.batch_id,
      company_id: message.company_id,
      kind: message.kind,
      cursor: message.cursor,
      accepted,
    });
  }

  private async handleClose(): Promise<void> {
    const wasReady = this.state !== 'awaiting_hello';
    this.state = 'closed';
    try {
      // A claim running now may lease jobs it then does not push (the state is closed): only a session
      // with no claim running and nothing in flight is known to hold no jobs.
      const claimRunning = this.claiming !== undefined;
      await this.claiming;
      if (wasReady && this.relayShuttingDown && !claimRunning && this.inFlight.size === 0) {
        // Nothing to requeue; ten thousand closes one statement each would outlast the shutdown timeout.
        this.closeLeftToGateway = true;
        return;
      }
      if (wasReady && (await this.services.presence.sessionClosed(this.connector.connectorId, this.sessionId))) {
        // Still the connector's session: what it held goes back to the queue (retry_count + 1, unless the relay is the one going).
        await this.services.jobs.requeueConnectorJobs(this.connector.connectorId, { countRetry: !this.relayShuttingDown });
        this.services.offlineCheckAfterGrace();
      }
    } catch (error) {
      this.log.error({ err: error, connector_id: this.connector.connectorId }, 'closing a connector session failed; leases will expire instead');
    } finally {
      this.inFlight.clear();
      this.resolveClosed();
    }
  }

  /**
   * Its pings and pongs keep last_seen_at fresh (a connector that pings on its own is rarely pinged by
   * the relay): every relay's presence sweep reads a connected connector silent for three heartbeats as
   * one whose relay died, and would publish connector.offline for a live one. Once an interval is
   * enough; the presence service writes what it heard in one statement per heartbeat tick.
   */
  private recordHeard(): void {
    const now = this.services.clock().getTime();
    if (now - this.lastHeardWriteAt < this.services.settings.heartbeatMs) return;
    this.lastHeardWriteAt = now;
    this.services.presence.heard(this.connector.connectorId, this.sessionId);
  }

  private sendError(code: ProtocolErrorCode, message: string, ref?: string | null): void {
    this.send({ type: 'error', v: CONNECTOR_PROTOCOL_VERSION, code, message, ref: ref ?? null });
  }

  private send(message: ServerMessage): void {
    this.transport.send(JSON.stringify(message));
  }
}
