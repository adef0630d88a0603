// Presence of connectors and their books, published as webhooks in order. A connector is online from
// its hello; it is published offline only when its socket has stayed closed for the grace period (or its
// relay process fell silent), so a flap — drop and reconnect within the grace — publishes nothing.
// Every transition is a conditional update (ConnectorPresenceStore): across relay processes, one publishes.
import type { ConnectorBooksState } from '@ledgerwire/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { ConnectorRepository } from '../../bridge/store/connectors/connector-repository.js';
import type { ConnectorPresenceStore } from '../store/presence/connector-presence-store.js';
import type { AuthenticatedConnector } from './enrolment-service.js';
import type { Clock, GatewayCompanies, GatewayWebhookPublisher, PresenceEventType } from './gateway-ports.js';

/** Rows per statement when many are written or read at once (well under SQLite's and PostgreSQL's parameter limits). */
const BATCH_ROWS = 500;

export type PresenceTimings = Readonly<{ offlineGraceMs: number; heartbeatMs: number }>;

export class PresenceService {
  /** Per connector, the chain of its publications: events of one connector leave in the order they happened. */
  private readonly chains = new Map<string, Promise<void>>();
  /** Per connector, the session last heard from and when, not yet written (see heard). */
  private readonly heardSince = new Map<string, { sessionId: string; at: number }>();

  constructor(
    private readonly deps: {
      store: ConnectorPresenceStore;
      connectors: ConnectorRepository;
      companies: GatewayCompanies;
      webhooks: GatewayWebhookPublisher | undefined;
      timings: PresenceTimings;
      clock: Clock;
      log: FastifyBaseLogger;
    },
  ) {}

  /** A session's hello: it owns the connector now; publish connector.online and the books state if they changed. */
  async sessionOpened(connector: AuthenticatedConnector, sessionId: string, version: string, books: ConnectorBooksState): Promise<void> {
    const now = this.now();
    const opening = { version, booksProduct: books.product ?? null, openCompanies: books.open_companies, now };
    // The common case (a reconnect: online already, books as they were) publishes nothing: one statement.
    if (await this.deps.store.openSteadySession(connector.connectorId, sessionId, { ...opening, booksRunning: books.running })) return;
    await this.deps.store.openSession(connector.connectorId, sessionId, opening);
    if (await this.deps.store.markOnline(connector.connectorId, now)) this.publish(connector, 'connector.online', now);
    // openSession wrote the books' details already (a reconnecting fleet is one statement lighter per hello).
    await this.booksRunning(connector, books.running, now);
  }

  /** presence: record the books' details and publish books.started / books.stopped on a change. */
  async booksChanged(connector: AuthenticatedConnector, books: ConnectorBooksState): Promise<void> {
    const now = this.now();
    await this.deps.store.updateBooksDetails(connector.connectorId, {
      booksProduct: books.product ?? null,
      openCompanies: books.open_companies,
      now,
    });
    await this.booksRunning(connector, books.running, now);
  }

  /**
   * The session's connector was heard from. Kept until the next flushHeard (the gateway's heartbeat
   * pass, the sweep, shutdown): with ten thousand sessions, one statement a tick instead of one per pong.
   */
  heard(connectorId: string, sessionId: string): void {
    this.heardSince.set(connectorId, { sessionId, at: this.deps.clock().getTime() });
  }

  /**
   * Writes last_seen_at for the sessions heard since the last flush. The batch gets its latest time: an
   * entry reads at most one heartbeat tick newer than it was, against a staleness limit of three
   * heartbeats and the grace (sweep). Entries whose write failed are kept for the next flush.
   */
  async flushHeard(): Promise<void> {
    if (this.heardSince.size === 0) return;
    const batch = [...this.heardSince];
    this.heardSince.clear();
    const at = new Date(batch.reduce((latest, [, heard]) => Math.max(latest, heard.at), 0)).toISOString();
    try {
      for (let first = 0; first < batch.length; first += BATCH_ROWS) {
        const rows = batch.slice(first, first + BATCH_ROWS).map(([connectorId, { sessionId }]) => ({ connectorId, sessionId }));
        await this.deps.store.touchSessions(rows, at);
      }
    } catch (error) {
      for (const [connectorId, heard] of batch) if (!this.heardSince.has(connectorId)) this.heardSince.set(connectorId, heard);
      throw error;
    }
  }

  /** False once a later hello (here or on another relay process) took the connector over. */
  async ownsConnector(connectorId: string, sessionId: string): Promise<boolean> {
    return (await this.deps.store.currentSession(connectorId)) === sessionId;
  }

  /** The session that owns each connector now, for many connectors in one read (the gateway's claim pass). */
  async currentSessions(connectorIds: readonly string[]): Promise<ReadonlyMap<string, string | null>> {
    return this.deps.store.currentSessions(connectorIds);
  }

  /** The session's socket closed. True when it still owned the connector (no newer session took over). */
  async sessionClosed(connectorId: string, sessionId: string): Promise<boolean> {
    return this.deps.store.closeSession(connectorId, sessionId, this.now());
  }

  /**
   * sessionClosed for many sessions at once (a relay shutting down, for the sessions that held no jobs);
   * only sessions that still owned their connector are recorded, as there.
   */
  async sessionsClosed(sessions: readonly { connectorId: string; sessionId: string }[]): Promise<void> {
    const now = this.now();
    for (let first = 0; first < sessions.length; first += BATCH_ROWS) {
      await this.deps.store.closeSessions(sessions.slice(first, first + BATCH_ROWS), now);
    }
  }

  /** Publishes connector.offline for every connector gone longer than the grace period. Returns how many. */
  async sweep(): Promise<number> {
    // A session heard here and not yet written must not read as silent.
    await this.flushHeard();
    const now = this.deps.clock();
    const graceCutoff = new Date(now.getTime() - this.deps.timings.offlineGraceMs).toISOString();
    // A live session refreshes last_seen_at every heartbeat; three silent heartbeats mean its process died.
    const staleCutoff = new Date(now.getTime() - this.deps.timings.heartbeatMs * 3 - this.deps.timings.offlineGraceMs).toISOString();
    let published = 0;
    for (const connectorId of await this.deps.store.listOfflineDue(graceCutoff, staleCutoff)) {
      if (!(await this.deps.store.markOffline(connectorId, graceCutoff, staleCutoff, now.toISOString()))) continue;
      const row = await this.deps.connectors.get(connectorId);
      if (!row) continue;
      this.publish({ connectorId, customerId: row.customer_id, applicationId: row.application_id }, 'connector.offline', now.toISOString());
      published += 1;
    }
    return published;
  }

  private async booksRunning(connector: AuthenticatedConnector, running: boolean, now: string): Promise<void> {
    if (await this.deps.store.setBooksRunning(connector.connectorId, running, now)) {
      this.publish(connector, running ? 'books.started' : 'books.stopped', now);
    }
  }

  /** Writes what was heard, then waits until every publication queued so far has been handed to the webhook engine. */
  async flush(): Promise<void> {
    await this.flushHeard();
    await Promise.all([...this.chains.values()]);
  }

  private publish(connector: AuthenticatedConnector, type: PresenceEventType, occurredAt: string): void {
    const previous = this.chains.get(connector.connectorId) ?? Promise.resolve();
    const next = previous.then(() => this.publishNow(connector, type, occurredAt));
    this.chains.set(connector.connectorId, next);
    void next.finally(() => {
      if (this.chains.get(connector.connectorId) === next) this.chains.delete(connector.connectorId);
    });
  }

  private async publishNow(connector: AuthenticatedConnector, type: PresenceEventType, occurredAt: string): Promise<void> {
    const webhooks = this.deps.webhooks;
    if (!webhooks) return;
    try {
      const row = await this.deps.connectors.get(connector.connectorId);
      const companies = await this.deps.companies.findPairedCompanies(connector.connectorId);
      const data: Record<string, unknown> = {
        connector_id: connector.connectorId,
        customer_id: connector.customerId,
        machine_name: row?.machine_name ?? null,
        connector_version: row?.version ?? null,
        company_ids: companies.map((c) => c.company_id),
        occurred_at: occurredAt,
      };
      if (type.startsWith('books.')) data.open_companies = row?.open_companies ?? [];
      await webhooks.publish({ kind: 'application', id: connector.applicationId }, { type, data });
    } catch (error) {
      // The state change is recorded; losing its notification is logged, never fatal to the session.
      this.deps.log.error({ err: error, connector_id: connector.connectorId, event_type: type }, 'presence webhook could not be published');
    }
  }

  private now(): string {
    return this.deps.clock().toISOString();
  }
}
