// Puts the connector gateway on the app: builds its stores and services over the relay's database, the
// bridge's job queue, pulled-data store, companies and customers, and the webhook engine; registers the
// connector routes; starts with the app and ends every session before the database closes.
import type { FastifyInstance } from 'fastify';
import { systemClock } from '../bridge-ids.js';
import { ConnectPageService } from '../connect-sessions/connect-page-service.js';
import { connectPageRoutes } from '../connect-sessions/connect-page-routes.js';
import { ConnectSessionStore } from '../connect-sessions/connect-session-store.js';
import { ConnectorRepository } from '../connectors/connector-repository.js';
import { ConnectorPresenceStore } from '../connectors/connector-presence-store.js';
import { SyncCursorStore } from '../connectors/sync-cursor-store.js';
import { ConnectorGateway } from './connector-gateway.js';
import { ConnectorPairingService } from './connector-pairing-service.js';
import { connectorRoutes } from './connector-routes.js';
import { EnrolmentService } from './enrolment-service.js';
import type { Clock } from './gateway-ports.js';
import { createJobWakeChannel } from './job-wake-channel.js';
import { PresenceService } from './presence-service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The connector gateway of this relay process (sessions, loops); tests reach its loops through it. */
    connectorGateway: ConnectorGateway;
  }
}

export async function registerConnectorGateway(app: FastifyInstance, options: { clock?: Clock } = {}): Promise<ConnectorGateway> {
  const { config, database, bridge, webhooks } = app.relay;
  const clock = options.clock ?? systemClock;
  const log = app.log.child({ component: 'connector-gateway' });
  const db = database.db;
  const connectors = new ConnectorRepository({ db });
  const presence = new PresenceService({
    store: new ConnectorPresenceStore({ db }),
    connectors,
    companies: bridge.companyRepository,
    webhooks,
    timings: { offlineGraceMs: config.connectors.offlineGraceMs, heartbeatMs: config.connectors.heartbeatMs },
    clock,
    log,
  });
  const gateway = new ConnectorGateway({
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
  app.decorate('connectorGateway', gateway);
  app.addHook('onReady', () => gateway.start({ startLoops: config.workersEnabled }));
  app.addHook('preClose', () => gateway.close());
  const pairing = new ConnectorPairingService({
    companies: bridge.companyRepository,
    pairingsChanged: (connectorId) => gateway.pairingsChanged(connectorId),
    paired: (connectorId, companyId) => bridge.connectSessions.companyPaired(connectorId, companyId),
  });
  await app.register(connectorRoutes, {
    gateway,
    enrolment: new EnrolmentService({
      connectors,
      customers: bridge.customers,
      setupCodes: bridge.connectSessions,
      guard: { counter: bridge.limiter, attemptsPerHour: config.bridge.setupCodeAttemptsPerHour },
      clock,
    }),
    pairing,
  });
  // The hosted connect page pairs on behalf of the connector its code enrolled, through the same service.
  await app.register(connectPageRoutes, {
    page: new ConnectPageService({
      store: new ConnectSessionStore(db),
      secrets: bridge.connectSecrets,
      customers: bridge.customers,
      companies: bridge.companyRepository,
      connectors,
      pair: (connector, input) => pairing.pair(connector, input),
      installerFile: config.bridge.connectorInstallerFile,
      clock,
    }),
  });
  return gateway;
}
