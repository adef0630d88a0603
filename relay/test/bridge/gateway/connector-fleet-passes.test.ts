// The gateway's passes over every session, as a relay with thousands of idle connectors runs them: what
// the connectors' pings and pongs say is written once per heartbeat pass for all of them; the claim pass
// reads ownership and pairings for many sessions at once and still ends a session taken over elsewhere,
// tells a session its new pairings and hands it its jobs; and a relay shutting down records the close of
// every session, the idle ones together, while the jobs of one that held some go back at no retry.
import { CONNECTOR_PROTOCOL_VERSION } from '@ledgerwire/shared';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeOnDatabases, startRelay, type TestRelay } from '@ledgerwire/test-kit';
import { TestConnector } from '../../helpers/test-connector.js';
import { CloseCode } from '../../../src/gateway/services/session-transport.js';
import { createTenant, pairFromConnector, readTransaction, writeInvoice, type Tenant } from './gateway-fixtures.js';

const LONG_AGO = '2000-01-01T00:00:00.000Z';

describeOnDatabases('gateway passes over many sessions', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  let baseUrl: string;
  let connectors: TestConnector[];
  /** Set by the test that closes the relay itself (and drops its database). */
  let shutDownByTest: boolean;

  beforeEach(async () => {
    // No loops: each test runs the passes itself.
    relay = await startRelay({ database: kind, env: { RELAY_WORKERS: '0' } });
    tenant = await createTenant(relay.app);
    baseUrl = await relay.app.listen({ port: 0, host: '127.0.0.1' });
    connectors = [];
    shutDownByTest = false;
  });
  afterEach(async () => {
    for (const connector of connectors) if (connector.isOpen) await connector.close();
    if (!shutDownByTest) await relay.close();
  });

  const connectMany = async (count: number) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const enrolled = await TestConnector.enroll(relay.app, { token: tenant.customerToken, machineName: `FLEET-${i}` });
      const connector = await TestConnector.connect(baseUrl, enrolled.credential);
      await connector.hello();
      connectors.push(connector);
      ids.push(enrolled.connector_id);
    }
    return ids;
  };
  const rows = (ids: readonly string[]) =>
    relay.app.database.db
      .selectFrom('connectors')
      .select(['id', 'connected', 'session_id', 'last_seen_at', 'disconnected_at'])
      .where('id', 'in', [...ids])
      .orderBy('id')
      .execute();

  it('writes last_seen_at for every connector heard since the last heartbeat pass, at the pass', async () => {
    const ids = await connectMany(3);
    await relay.app.database.db.updateTable('connectors').set({ last_seen_at: LONG_AGO }).where('id', 'in', ids).execute();
    for (const [i, connector] of connectors.entries()) {
      connector.send({ type: 'ping', v: CONNECTOR_PROTOCOL_VERSION, nonce: `n-${i}` });
      await connector.next('pong', (m) => m.nonce === `n-${i}`);
    }
    expect((await rows(ids)).map((r) => r.last_seen_at)).toEqual([LONG_AGO, LONG_AGO, LONG_AGO]);

    const before = Date.now();
    await relay.app.gateway.sessions.heartbeatPass();
    for (const row of await rows(ids)) expect(Date.parse(row.last_seen_at ?? '')).toBeGreaterThanOrEqual(before - 1000);
  });

  it('ends a session taken over elsewhere, and hands another its new pairing and its job, from one read for all', async () => {
    const [paired, takenOver, idle] = await connectMany(3);
    // Changes another relay process would make: a pairing of `paired` and a newer hello of `takenOver`.
    await relay.app.bridge.companyRepository.update(tenant.companyId, {
      connector_id: paired!,
      books_company_guid: 'books-guid-acme',
      books_company_name: 'Acme Traders',
    });
    await relay.app.database.db.updateTable('connectors').set({ session_id: 'cses_on-another-relay' }).where('id', '=', takenOver!).execute();
    const jobId = await writeInvoice(relay.app, tenant, 'F/1');

    await relay.app.gateway.sessions.claimPass();
    const [pairedConnector, takenOverConnector, idleConnector] = connectors;
    expect((await pairedConnector!.next('pairings')).companies).toEqual([
      { company_id: tenant.companyId, books_company_guid: 'books-guid-acme', books_company_name: 'Acme Traders' },
    ]);
    expect((await pairedConnector!.receiveJob(jobId)).attempt).toBe(1);
    expect(await takenOverConnector!.next('error')).toMatchObject({ code: 'replaced' });
    expect((await takenOverConnector!.closed).code).toBe(CloseCode.replaced);
    expect(idleConnector!.isOpen).toBe(true);
    expect(idleConnector!.received.map((m) => m.type)).toEqual(['welcome']);
    expect(relay.app.gateway.sessions.sessionOf(idle!)?.ready).toBe(true);
  });

  it('records the close of every session when the relay shuts down, and hands back the jobs of the one that held some', async () => {
    const ids = await connectMany(3);
    const enrolled = await TestConnector.enroll(relay.app, { token: tenant.customerToken, machineName: 'FLEET-BUSY' });
    await pairFromConnector(relay.app, enrolled.credential, tenant.companyId);
    const busy = await TestConnector.connect(baseUrl, enrolled.credential);
    await busy.hello();
    connectors.push(busy);
    const jobId = await writeInvoice(relay.app, tenant, 'F/2');
    await busy.receiveJob(jobId);

    let reopened: FastifyInstance | undefined;
    try {
      await relay.app.close();
      for (const connector of connectors) expect((await connector.closed).code).toBe(CloseCode.goingAway);
      reopened = (await startRelay({ config: relay.config })).app;
      const closed = await reopened.database.db
        .selectFrom('connectors')
        .select(['connected', 'disconnected_at'])
        .where('id', 'in', [...ids, enrolled.connector_id])
        .execute();
      expect(closed).toHaveLength(4);
      for (const row of closed) expect({ connected: Number(row.connected), closedAt: typeof row.disconnected_at }).toEqual({ connected: 0, closedAt: 'string' });
      expect(await readTransaction(reopened, tenant, jobId)).toMatchObject({ status: 'queued', retry_count: 0 });
    } finally {
      await reopened?.close();
      await relay.testDatabase.drop();
      shutDownByTest = true;
    }
  });
});
