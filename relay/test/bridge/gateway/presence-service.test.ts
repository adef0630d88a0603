// The presence rules with an injected clock, on the real connector rows: online published once per
// stay, books transitions only on a change, offline only after the grace period (a flap publishes
// nothing), a relay process that died (socket never closed, heartbeats stopped) detected as stale,
// and a late close of a replaced session ignored. Events of one connector leave in order.
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ConnectorPresenceStore } from '../../../src/gateway/store/presence/connector-presence-store.js';
import { ConnectorRepository } from '../../../src/bridge/store/connectors/connector-repository.js';
import type { AuthenticatedConnector } from '../../../src/gateway/services/enrolment-service.js';
import type { GatewayWebhookPublisher } from '../../../src/gateway/services/gateway-ports.js';
import { PresenceService } from '../../../src/gateway/services/presence-service.js';
import { describeOnDatabases, startRelay, testClock, type TestClock, type TestRelay } from '@ledgerwire/test-kit';
import { BOOKS_RUNNING, BOOKS_STOPPED, TestConnector } from '../../helpers/test-connector.js';
import { createTenant, type Tenant } from './gateway-fixtures.js';

const GRACE_MS = 60_000;
const HEARTBEAT_MS = 25_000;

describeOnDatabases('presence service', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  let connector: AuthenticatedConnector;
  let clock: TestClock;
  let published: { owner: string; type: string; data: Record<string, unknown> }[];
  let presence: PresenceService;

  const advance = (ms: number) => {
    clock.advance(ms);
  };
  const types = async () => {
    await presence.flush();
    return published.map((p) => p.type);
  };

  beforeEach(async () => {
    relay = await startRelay({ database: kind, env: { RELAY_WORKERS: '0' } });
    tenant = await createTenant(relay.app);
    const enrolled = await TestConnector.enroll(relay.app, { token: tenant.customerToken, machineName: 'PC-9' });
    connector = { connectorId: enrolled.connector_id, customerId: tenant.customerId, applicationId: tenant.applicationId };
    clock = testClock(Date.parse('2026-04-01T09:00:00.000Z'));
    published = [];
    const webhooks: GatewayWebhookPublisher = {
      publish: async (owner, event) => {
        published.push({ owner: owner.id, type: event.type, data: event.data });
      },
    };
    const db = relay.app.database.db;
    presence = new PresenceService({
      store: new ConnectorPresenceStore({ db }),
      connectors: new ConnectorRepository({ db }),
      companies: relay.app.bridge.companyRepository,
      webhooks,
      timings: { offlineGraceMs: GRACE_MS, heartbeatMs: HEARTBEAT_MS },
      clock: clock.date,
      log: relay.app.log as FastifyBaseLogger,
    });
  });
  afterEach(() => relay.close());

  it('publishes online and books.started once, then offline only after the grace period', async () => {
    await presence.sessionOpened(connector, 's-1', '1.0.0', BOOKS_RUNNING);
    await presence.booksChanged(connector, BOOKS_RUNNING);
    expect(await types()).toEqual(['connector.online', 'books.started']);
    expect(published[0]).toMatchObject({ owner: tenant.applicationId, data: { connector_id: connector.connectorId, machine_name: 'PC-9', connector_version: '1.0.0' } });

    expect(await presence.sessionClosed(connector.connectorId, 's-1')).toBe(true);
    advance(GRACE_MS - 1);
    expect(await presence.sweep()).toBe(0);
    advance(1);
    expect(await presence.sweep()).toBe(1);
    expect(await presence.sweep()).toBe(0);
    expect(await types()).toEqual(['connector.online', 'books.started', 'connector.offline']);
    const record = await new ConnectorRepository({ db: relay.app.database.db }).get(connector.connectorId);
    expect(record).toMatchObject({ online: false, books_running: true, open_companies: BOOKS_RUNNING.open_companies });
  });

  it('publishes nothing for a flap: closed and back within the grace period', async () => {
    await presence.sessionOpened(connector, 's-1', '1.0.0', BOOKS_STOPPED);
    await presence.sessionClosed(connector.connectorId, 's-1');
    advance(GRACE_MS / 2);
    await presence.sessionOpened(connector, 's-2', '1.0.0', BOOKS_STOPPED);
    advance(GRACE_MS * 2);
    expect(await presence.sweep()).toBe(0);
    expect(await types()).toEqual(['connector.online']);
  });

  it('publishes only what changed when a connector comes back within the grace period: its books, not itself', async () => {
    await presence.sessionOpened(connector, 's-1', '1.0.0', BOOKS_STOPPED);
    await presence.sessionClosed(connector.connectorId, 's-1');
    advance(GRACE_MS / 2);
    await presence.sessionOpened(connector, 's-2', '1.0.1', BOOKS_RUNNING);
    await presence.sessionClosed(connector.connectorId, 's-2');
    advance(GRACE_MS / 2);
    await presence.sessionOpened(connector, 's-3', '1.0.2', BOOKS_RUNNING);
    expect(await presence.ownsConnector(connector.connectorId, 's-3')).toBe(true);
    expect(await types()).toEqual(['connector.online', 'books.started']);
    const record = await new ConnectorRepository({ db: relay.app.database.db }).get(connector.connectorId);
    expect(record).toMatchObject({ online: true, version: '1.0.2', books_running: true, open_companies: BOOKS_RUNNING.open_companies });
  });

  it('publishes books.stopped and books.started on each change, in order', async () => {
    await presence.sessionOpened(connector, 's-1', '1.0.0', BOOKS_STOPPED);
    await presence.booksChanged(connector, BOOKS_RUNNING);
    await presence.booksChanged(connector, BOOKS_STOPPED);
    await presence.booksChanged(connector, BOOKS_STOPPED);
    await presence.booksChanged(connector, BOOKS_RUNNING);
    expect(await types()).toEqual(['connector.online', 'books.started', 'books.stopped', 'books.started']);
  });

  it('takes a connector whose relay process went silent for offline, and ignores a late close of a replaced session', async () => {
    await presence.sessionOpened(connector, 's-1', '1.0.0', BOOKS_STOPPED);
    await presence.sessionOpened(connector, 's-2', '1.0.0', BOOKS_STOPPED);
    expect(await presence.ownsConnector(connector.connectorId, 's-1')).toBe(false);
    expect(await presence.sessionClosed(connector.connectorId, 's-1')).toBe(false);
    advance(GRACE_MS + HEARTBEAT_MS);
    presence.heard(connector.connectorId, 's-2');
    advance(HEARTBEAT_MS * 3 + GRACE_MS - 1);
    expect(await presence.sweep()).toBe(0);
    advance(1);
    expect(await presence.sweep()).toBe(1);
    expect(await types()).toEqual(['connector.online', 'connector.offline']);
  });
});
