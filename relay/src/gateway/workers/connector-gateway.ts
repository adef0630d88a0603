// The gateway of one relay process: the live connector sessions, what wakes them (a job queued here,
// a NOTIFY from another process, the periodic claim pass), the heartbeat, the lease reaper and the
// presence sweep. Leases that run out are reaped by the bridge's lease reaper; the job queue's
// onJobQueued then wakes the sessions here. Every loop runs through createBackgroundLoop; close() ends
// sessions before the database goes away so their jobs are requeued and their presence recorded.
import type { FastifyBaseLogger } from 'fastify';
import { createBackgroundLoop, type BackgroundLoop } from '../../background/background-loop.js';
import type { ConnectorGatewayConfig } from '../../config/load-config.js';
import type { SyncCursorStore } from '../store/sync-cursors/sync-cursor-store.js';
import { ConnectorSession } from '../services/connector-session.js';
import type { AuthenticatedConnector } from '../services/enrolment-service.js';
import type { Clock, GatewayCompanies, GatewayJobQueue, GatewayPulledData } from '../services/gateway-ports.js';
import type { JobWakeChannel } from './job-wake-channel.js';
import type { PresenceService } from '../services/presence-service.js';
import type { SessionServices } from '../services/session-services.js';
import { CloseCode, closeThenCut, type SessionTransport } from '../services/session-transport.js';

export type ConnectorGatewayDeps = Readonly<{
  jobs: GatewayJobQueue;
  pulledData: GatewayPulledData;
  companies: GatewayCompanies;
  cursors: SyncCursorStore;
  presence: PresenceService;
  wakeChannel: JobWakeChannel;
  settings: ConnectorGatewayConfig;
  clock: Clock;
  log: FastifyBaseLogger;
}>;

/** Sessions whose ownership and pairings the claim pass reads in one statement each. */
const PASS_CHUNK = 500;

export class ConnectorGateway {
  private readonly sessions = new Map<string, ConnectorSession>();
  private readonly services: SessionServices;
  private readonly graceTimers = new Set<NodeJS.Timeout>();
  private closing = false;
  readonly claimLoop: BackgroundLoop;
  readonly heartbeatLoop: BackgroundLoop;
  readonly presenceLoop: BackgroundLoop;

  constructor(private readonly deps: ConnectorGatewayDeps) {
    const { settings, log } = deps;
    this.services = Object.freeze({
      jobs: deps.jobs,
      pulledData: deps.pulledData,
      companies: deps.companies,
      cursors: deps.cursors,
      presence: deps.presence,
      settings: { leaseMs: settings.leaseMs, heartbeatMs: settings.heartbeatMs, maxInFlight: settings.maxInFlight },
      clock: deps.clock,
      offlineCheckAfterGrace: () => this.offlineCheckAfterGrace(),
    });
    this.claimLoop = createBackgroundLoop({ name: 'connector-claims', intervalMs: settings.claimIntervalMs, log, pass: () => this.claimPass() });
    // Looks four times an interval: a silent connector is dropped soon after its silence passes the
    // limit (under 45 s with the default heartbeat), not up to a whole interval later.
    this.heartbeatLoop = createBackgroundLoop({ name: 'connector-heartbeat', intervalMs: Math.max(50, Math.floor(settings.heartbeatMs / 4)), log, pass: () => this.heartbeatPass() });
    this.presenceLoop = createBackgroundLoop({
      name: 'connector-presence',
      intervalMs: clamp(settings.offlineGraceMs / 2, 250, 5000),
      log,
      pass: () => this.presencePass(),
    });
  }

  get loops(): readonly BackgroundLoop[] {
    return [this.claimLoop, this.heartbeatLoop, this.presenceLoop];
  }

  /** Hooks the job queue's wake-ups (local and, on PostgreSQL, from other processes) and starts the loops. */
  async start(options: { startLoops: boolean }): Promise<void> {
    this.deps.jobs.onJobQueued((companyId) => {
      this.wakeCompany(companyId);
      this.deps.wakeChannel.announce(companyId);
    });
    try {
      await this.deps.wakeChannel.start((companyId) => this.wakeCompany(companyId));
    } catch (error) {
      // Without wake-ups from other relay processes, their jobs still arrive through the claim pass.
      this.deps.log.error({ err: error }, 'job wake channel did not start; relying on the claim pass');
    }
    if (options.startLoops) for (const loop of this.loops) loop.start();
  }

  /**
   * A new authenticated connection. Its listeners are attached at once (no frame is missed); a
   * connection of the same connector already here is replaced, and the new one handles its first
   * frame only once the old one's close has been recorded. Once the gateway is closing, a connection
   * is turned away at once: a connector that dials back during the shutdown would otherwise hold a
   * session nobody ends, and the HTTP server's close would wait on its socket for ever.
   */
  attach(transport: SessionTransport, connector: AuthenticatedConnector): ConnectorSession | undefined {
    if (this.closing) {
      closeThenCut(transport, CloseCode.goingAway, 'the relay is shutting down');
      return undefined;
    }
    const previous = this.sessions.get(connector.connectorId);
    previous?.end(CloseCode.replaced, 'a newer connection of this connector took over', 'replaced');
    const session = new ConnectorSession(
      connector,
      transport,
      this.services,
      this.deps.log.child({ connector_id: connector.connectorId }),
      previous?.closed,
    );
    this.sessions.set(connector.connectorId, session);
    void session.closed.then(() => {
      if (this.sessions.get(connector.connectorId) === session) this.sessions.delete(connector.connectorId);
    });
    return session;
  }

  sessionOf(connectorId: string): ConnectorSession | undefined {
    return this.sessions.get(connectorId);
  }

  /** A job of the company was queued (here or on another process): sessions serving it claim now. */
  wakeCompany(companyId: number): void {
    for (const session of this.sessions.values()) if (session.servesCompany(companyId)) void session.fillCapacity();
  }

  /** The connector's pairings changed: its session (if on this process) re-reads them and claims. */
  async pairingsChanged(connectorId: string): Promise<void> {
    const session = this.sessions.get(connectorId);
    if (!session) return;
    await session.refreshPairings();
    await session.fillCapacity();
  }

  /**
   * Safety net: drop sessions taken over elsewhere, refresh pairings and claim for every session. With
   * ten thousand sessions one statement each was most of an idle relay's CPU: ownership and pairings are
   * read for a chunk of sessions at a time, and only a session with a paired company claims (a claim
   * looks at nothing else). Only sessions ready before the read are judged by it: a hello finishing
   * meanwhile has written a newer owner than the one read.
   */
  async claimPass(): Promise<void> {
    const ready = [...this.sessions.values()].filter((session) => session.ready);
    for (let first = 0; first < ready.length; first += PASS_CHUNK) {
      const chunk = ready.slice(first, first + PASS_CHUNK);
      const ids = chunk.map((session) => session.connector.connectorId);
      const owners = await this.deps.presence.currentSessions(ids);
      const pairings = await this.deps.companies.findPairedCompaniesOf(ids);
      const owned = chunk.filter((session) => session.keepIfOwner(owners.get(session.connector.connectorId)));
      for (const session of owned) session.pairingsRead(pairings.get(session.connector.connectorId) ?? []);
      for (const session of owned) if (session.paired) await session.fillCapacity();
    }
  }

  /** Each session's heartbeat, then one write of what was heard from them since the last pass. */
  async heartbeatPass(): Promise<void> {
    for (const session of this.sessions.values()) session.heartbeat(this.deps.settings.heartbeatMs);
    try {
      await this.deps.presence.flushHeard();
    } catch (error) {
      // Not the pass's failure: a loop that backed off would drop silent connectors late. Kept for the next pass.
      this.deps.log.error({ err: error }, 'writing last_seen_at of the connectors heard failed; trying again next pass');
    }
  }

  async presencePass(): Promise<void> {
    await this.deps.presence.sweep();
  }

  /**
   * Ends every session and waits until each close was recorded (those that held no jobs together, in
   * one statement per chunk), then stops the loops.
   */
  async close(): Promise<void> {
    this.closing = true;
    for (const timer of this.graceTimers) clearTimeout(timer);
    this.graceTimers.clear();
    const sessions = [...this.sessions.values()];
    for (const session of sessions) session.endForShutdown();
    await Promise.all(sessions.map((s) => s.closed));
    const idle = sessions.filter((s) => s.closeRecordedByGateway).map((s) => ({ connectorId: s.connector.connectorId, sessionId: s.sessionId }));
    try {
      await this.deps.presence.sessionsClosed(idle);
    } catch (error) {
      // Their rows still read connected: the next hello replaces them, or the sweep takes them as a dead relay's.
      this.deps.log.error({ err: error, sessions: idle.length }, 'recording the closes of idle sessions at shutdown failed');
    }
    await Promise.all(this.loops.map((loop) => loop.stop()));
    await this.deps.wakeChannel.close();
    await this.deps.presence.flush();
  }

  private offlineCheckAfterGrace(): void {
    const timer = setTimeout(() => {
      this.graceTimers.delete(timer);
      this.presenceLoop.wake();
    }, this.deps.settings.offlineGraceMs + 20);
    timer.unref();
    this.graceTimers.add(timer);
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.round(value)));
}
