// Scale mode on PostgreSQL: two relay processes (two apps) share one database. The connector's socket
// lives on relay B; a write accepted by relay A reaches it through LISTEN/NOTIFY — the claim pass is set
// to an hour, so nothing else could deliver it. Presence is shared too: A sees B's connector online; a
// half-open leftover connection on one relay is ended once the connector said hello on the other; and a
// lost LISTEN connection is opened again.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CloseCode } from '../../../src/gateway/services/session-transport.js';
import { availableDatabaseKinds, call, eventually, startRelay, type TestRelay } from '@ledgerwire/test-kit';
import { TestConnector } from '../../helpers/test-connector.js';
import { createTenant, pairFromConnector, readTransaction, writeInvoice, type Tenant } from './gateway-fixtures.js';

describe.runIf(availableDatabaseKinds().includes('postgres'))('connector gateway in scale mode [postgres]', () => {
  let relayA: TestRelay;
  let appB: FastifyInstance;
  let tenant: Tenant;
  let connector: TestConnector | undefined;
  let other: TestConnector | undefined;

  beforeEach(async () => {
    relayA = await startRelay({ database: 'postgres', env: { RELAY_WORKERS: '0', CONNECTOR_CLAIM_INTERVAL_MS: '3600000' } });
    appB = (await startRelay({ config: relayA.config })).app;
    await relayA.app.ready();
    tenant = await createTenant(relayA.app);
  });
  afterEach(async () => {
    if (connector?.isOpen) await connector.close();
    if (other?.isOpen) await other.close();
    await appB.close();
    await relayA.close();
  });

  it('delivers a job accepted on one relay to the connector connected to another', async () => {
    const baseUrlB = await appB.listen({ port: 0, host: '127.0.0.1' });
    const enrolled = await TestConnector.enroll(appB, { token: tenant.customerToken, machineName: 'REMOTE-PC' });
    await pairFromConnector(relayA.app, enrolled.credential, tenant.companyId);
    connector = await TestConnector.connect(baseUrlB, enrolled.credential);
    await connector.hello();

    const { body: health } = await call(relayA.app, 'GET', `/api/v1/companies/${tenant.companyId}/health`, 200, { token: tenant.apiKey });
    expect(health.connector).toMatchObject({ online: true, machine: 'REMOTE-PC' });

    const jobId = await writeInvoice(relayA.app, tenant, 'N/1');
    const job = await connector.receiveJob(jobId);
    expect(job.attempt).toBe(1);
    await connector.complete(jobId, { books_voucher_guid: 'guid-n1' });
    expect(await readTransaction(relayA.app, tenant, jobId)).toMatchObject({ status: 'completed', books_voucher_guid: 'guid-n1' });
  });

  it('ends a leftover connection on one relay once the connector said hello on another', async () => {
    const baseUrlA = await relayA.app.listen({ port: 0, host: '127.0.0.1' });
    const baseUrlB = await appB.listen({ port: 0, host: '127.0.0.1' });
    const enrolled = await TestConnector.enroll(appB, { token: tenant.customerToken, machineName: 'ROAMING-PC' });
    await pairFromConnector(relayA.app, enrolled.credential, tenant.companyId);
    // The old connection on B stays half-open (its peer moved to A without closing it).
    other = await TestConnector.connect(baseUrlB, enrolled.credential);
    await other.hello();
    connector = await TestConnector.connect(baseUrlA, enrolled.credential);
    await connector.hello();

    await appB.gateway.sessions.claimPass();
    expect(await other.next('error')).toMatchObject({ code: 'replaced' });
    expect((await other.closed).code).toBe(CloseCode.replaced);

    const jobId = await writeInvoice(relayA.app, tenant, 'N/2');
    await connector.receiveJob(jobId);
    expect(other.received.some((m) => m.type === 'job.assign')).toBe(false);
  });

  it('listens again after the wake channel lost its connection', async () => {
    const baseUrlB = await appB.listen({ port: 0, host: '127.0.0.1' });
    const enrolled = await TestConnector.enroll(appB, { token: tenant.customerToken, machineName: 'PC-L' });
    await pairFromConnector(relayA.app, enrolled.credential, tenant.companyId);
    connector = await TestConnector.connect(baseUrlB, enrolled.credential);
    await connector.hello();

    const channel = `LISTEN "lw_jobs_${relayA.testDatabase.database.kind === 'postgres' ? relayA.testDatabase.database.schema : ''}"`;
    const listeners = () =>
      sql<{ pid: number }>`select pid from pg_stat_activity where query = ${channel}`.execute(relayA.app.database.db).then((r) => r.rows.map((row) => row.pid));
    const before = await eventually('both relays listening', listeners, { until: (pids) => pids.length === 2 });
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where pid in (${sql.join(before)})`.execute(relayA.app.database.db);
    await eventually('both relays listening again', listeners, { until: (pids) => pids.length === 2 && pids.every((pid) => !before.includes(pid)) });

    const jobId = await writeInvoice(relayA.app, tenant, 'N/3');
    expect((await connector.receiveJob(jobId)).attempt).toBe(1);
  });
});
