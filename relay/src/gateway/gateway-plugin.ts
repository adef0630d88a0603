// The connector gateway module: builds its stores and services over the database, the bridge's job
// queue, pulled-data store, companies and customers, and the webhook engine; puts them on the app as
// `app.gateway`; registers the connector routes and the hosted connect page's calls; starts its loops
// with the app and ends every session before the database closes.
import fp from 'fastify-plugin';
import type { BackgroundLoop } from '../background/background-loop.js';
import { ConnectPageService } from './services/connect-page-service.js';
import { connectPageRoutes } from './routes/connect-page-routes.js';
import { ConnectSessionStore } from '../bridge/store/connect-sessions/connect-session-store.js';
import { ConnectorRepository } from '../bridge/store/connectors/connector-repository.js';
import { ConnectorPresenceStore } from './store/presence/connector-presence-store.js';
import { SyncCursorStore } from './store/sync-cursors/sync-cursor-store.js';
import { ConnectorGateway } from './workers/connector-gateway.js';
import { ConnectorPairingService } from './services/connector-pairing-service.js';
import { connectorRoutes } from './routes/connector-routes.js';
import { EnrolmentService } from './services/enrolment-service.js';
import { createJobWakeChannel } from './workers/job-wake-channel.js';
import { PresenceService } from './services/presence-service.js';

export type GatewayModule = Readonly<{
  /** The live connector sessions of this relay process, and the passes (claim, heartbeat, presence) over them. */
  sessions: ConnectorGateway;
  enrolment: EnrolmentService;
  pairing: ConnectorPairingService;
  /** What the hosted connect page asks and chooses, under its page token. */
  connectPage: ConnectPageService;
  /** The module's background loops, for /readyz and the console. */
  loops: readonly BackgroundLoop[];
}>;

declare module 'fastify' {
  interface FastifyInstance {
    gateway: GatewayModule;
  }
}

export const connectorGatewayPlugin = fp(
  async (app) => {
    const { config, database, bridge } = app;
    const clock = app.clock.date;
    const log = app.log.child({ component: 'connector-gateway' });
    const db = database.db;
    const connectors = new ConnectorRepository({ db });
    const presence = new PresenceService({
      store: new ConnectorPresenceStore({ db }),
      connectors,
      companies: bridge.companyRepository,
      webhooks: app.webhooks.service,
      timings: { offlineGraceMs: config.connectors.offlineGraceMs, heartbeatMs: config.connectors.heartbeatMs },
      clock,
      log,
    });
    const sessions = new ConnectorGateway({
      jobs: bridge.jobQueue,
      pulledData: bridge.pulledData,
      companies: bridge.companyRepository,
      cursors: new SyncCursorStore({ db }),
      presence,
      wakeChannel: createJobWakeChannel({ database: config.database, capabilities: database.capabilities, log }),
      settings: config.connectors,
      clock,
      log,
    });
    const pairing = new ConnectorPairingService({
      companies: bridge.companyRepository,
      pairingsChanged: (connectorId) => sessions.pairingsChanged(connectorId),
      paired: (connectorId, companyId) => bridge.connectSessions.companyPaired(connectorId, companyId),
    });
    const enrolment = new EnrolmentService({
      connectors,
      customers: bridge.customers,
      setupCodes: bridge.connectSessions,
      guard: { counter: bridge.limiter, attemptsPerHour: config.bridge.setupCodeAttemptsPerHour },
      clock,
    });
    // The hosted connect page pairs on behalf of the connector its code enrolled, through the same service.
    const connectPage = new ConnectPageService({
      store: new ConnectSessionStore(db),
      secrets: bridge.connectSecrets,
      customers: bridge.customers,
      companies: bridge.companyRepository,
      connectors,
      pair: (connector, input) => pairing.pair(connector, input),
      installerFile: config.bridge.connectorInstallerFile,
      clock,
    });
    app.decorate('gateway', Object.freeze({ sessions, enrolment, pairing, connectPage, loops: sessions.loops }));
    app.addHook('onReady', () => sessions.start({ startLoops: config.workersEnabled }));
    app.addHook('preClose', () => sessions.close());
    await app.register(connectorRoutes);
    await app.register(connectPageRoutes);
  },
  {
    name: 'ledgerwire-connector-gateway',
    fastify: '5.x',
    dependencies: ['ledgerwire-config', 'ledgerwire-clock', 'ledgerwire-database', 'ledgerwire-webhooks', 'ledgerwire-bridge'],
  },
);
