// A connector that pings on its own (as the real one does every half interval) is rarely pinged by the
// relay, so its own pings must keep it alive in the shared presence row: every relay's sweep takes a
// connected connector silent for three heartbeats and the grace for one whose relay process died, and
// would publish connector.offline for a live one (seen behind nginx: offline ~5 s after every move).
import { CONNECTOR_PROTOCOL_VERSION } from '@ledgerwire/shared';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeOnDatabases, startRelay, type TestRelay } from '@ledgerwire/test-kit';
import { BOOKS_RUNNING, TestConnector } from '../../helpers/test-connector.js';
import { createTenant, pairFromConnector, type Tenant } from './gateway-fixtures.js';

const HEARTBEAT_MS = 400;
const GRACE_MS = 300;
/** What the sweep allows a connected connector before reading it as gone (presence-service.ts). */
const STALE_AFTER_MS = HEARTBEAT_MS * 3 + GRACE_MS;

describeOnDatabases('a connector that pings on its own', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  let connector: TestConnector | undefined;

  beforeEach(async () => {
    relay = await startRelay({ database: kind, env: { CONNECTOR_HEARTBEAT_MS: String(HEARTBEAT_MS), CONNECTOR_OFFLINE_GRACE_MS: String(GRACE_MS) } });
    tenant = await createTenant(relay.app);
  });
  afterEach(async () => {
    if (connector?.isOpen) await connector.close();
    await relay.close();
  });

  it('stays online past the staleness limit while only its own pings are heard', async () => {
    const baseUrl = await relay.app.listen({ port: 0, host: '127.0.0.1' });
    const enrolled = await TestConnector.enroll(relay.app, { token: tenant.customerToken, machineName: 'PINGING-PC' });
    await pairFromConnector(relay.app, enrolled.credential, tenant.companyId);
    connector = await TestConnector.connect(baseUrl, enrolled.credential);
    await connector.hello(BOOKS_RUNNING);

    // Pinging every quarter interval, the connector is never quiet for half of one: the relay never
    // pings it, and the presence sweep (every 250 ms with this grace) looks at it a dozen times.
    const pingingFrom = Date.now();
    const until = pingingFrom + STALE_AFTER_MS * 2;
    let pings = 0;
    while (Date.now() < until) {
      connector.send({ type: 'ping', v: CONNECTOR_PROTOCOL_VERSION, nonce: `n-${pings}` });
      await connector.next('pong', (m) => m.nonce === `n-${pings}`);
      pings += 1;
      await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_MS / 4));
    }
    await relay.app.gateway.sessions.presencePass();

    const row = await relay.app.database.db
      .selectFrom('connectors')
      .select(['online', 'connected', 'last_seen_at'])
      .where('id', '=', enrolled.connector_id)
      .executeTakeFirstOrThrow();
    expect(pings).toBeGreaterThan(8);
    expect({ online: Number(row.online), connected: Number(row.connected) }).toEqual({ online: 1, connected: 1 });
    // Order, not a stopwatch: the pings (not only the hello before them) kept the connector seen.
    expect(Date.parse(row.last_seen_at ?? '')).toBeGreaterThanOrEqual(pingingFrom);
  });
});
