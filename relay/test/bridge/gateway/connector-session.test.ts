// The session's protocol rules, over the in-memory link (no network) and the same over a real socket:
// hello first, malformed frames answered with an error naming the problem, an unknown protocol version
// refused and closed, ping answered, a second connection of the same connector replacing the first,
// a connector that stops answering pings dropped by the heartbeat, a lease that runs out answered by a
// second delivery, and open sessions ended cleanly when the relay shuts down (one dialling back meanwhile
// turned away).
import { CONNECTOR_PROTOCOL_VERSION } from '@ledgerwire/shared';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { CloseCode } from '../../../src/gateway/services/session-transport.js';
import { describeOnDatabases, eventually, startRelay, type TestRelay } from '@ledgerwire/test-kit';
import { BOOKS_RUNNING, TestConnector } from '../../helpers/test-connector.js';
import { createTenant, pairFromConnector, readTransaction, writeInvoice, type Tenant } from './gateway-fixtures.js';
import { createInMemoryLink } from './in-memory-link.js';

const v = CONNECTOR_PROTOCOL_VERSION;

describeOnDatabases('connector session protocol', (kind) => {
  let relay: TestRelay;
  let tenant: Tenant;
  let enrolled: { connector_id: string; credential: string };
  let baseUrl: string;
  const open: TestConnector[] = [];

  beforeEach(async () => {
    relay = await startRelay({ database: kind, env: { RELAY_WORKERS: '0' } });
    baseUrl = await relay.app.listen({ port: 0, host: '127.0.0.1' });
    tenant = await createTenant(relay.app);
    enrolled = await TestConnector.enroll(relay.app, { token: tenant.customerToken, machineName: 'PC-1' });
    await pairFromConnector(relay.app, enrolled.credential, tenant.companyId);
  });
  afterEach(async () => {
    for (const connector of open.splice(0)) if (connector.isOpen) await connector.close();
    await relay.close();
  });

  /** A connector joined to the gateway through the in-memory link (the route's authentication is the socket tests' job). */
  const inMemory = () => {
    const link = createInMemoryLink();
    relay.app.gateway.sessions.attach(link.relay, { connectorId: enrolled.connector_id, customerId: tenant.customerId, applicationId: tenant.applicationId });
    const connector = new TestConnector(link.connector);
    open.push(connector);
    return connector;
  };
  const overSocket = async () => {
    const connector = await TestConnector.connect(baseUrl, enrolled.credential);
    open.push(connector);
    return connector;
  };

  for (const [transport, connectVia] of [['in-memory link', async () => inMemory()], ['real socket', () => overSocket()]] as const) {
    it(`wants hello first, and answers malformed frames with an error (${transport})`, async () => {
      const connector = await connectVia();
      connector.send({ type: 'job.ack', v, job_id: 'j' });
      expect(await connector.next('error')).toMatchObject({ code: 'hello_required' });
      connector.sendRaw('{"type":"hello"');
      expect(await connector.next('error')).toMatchObject({ code: 'malformed_message', message: 'the frame is not JSON' });
      connector.sendRaw(JSON.stringify({ type: 'hello', v, connector_version: '1.0.0' }));
      expect((await connector.next('error')).message).toMatch(/books/);
      const welcome = await connector.hello(BOOKS_RUNNING);
      expect(welcome).toMatchObject({ connector_id: enrolled.connector_id, max_in_flight: 600, lease_ms: 600_000 });
      connector.send({ type: 'hello', v, connector_version: '1.0.0', books: BOOKS_RUNNING });
      expect(await connector.next('error')).toMatchObject({ code: 'malformed_message', message: expect.stringMatching(/already/) });
      connector.send({ type: 'ping', v, nonce: 'are-you-there' });
      expect(await connector.next('pong')).toMatchObject({ nonce: 'are-you-there' });
      // A refused sync batch is named, so the connector's sync fails at once rather than waiting for its ack.
      connector.sendRaw(JSON.stringify({ type: 'sync.batch', v, batch_id: 'sb_refused', company_id: 1, kind: 'deletions', cursor: '1', items: [{ object: 'invoice', guid: 'g' }] }));
      expect(await connector.next('error')).toMatchObject({ code: 'malformed_message', ref: 'sb_refused', message: expect.stringMatching(/^items\.0\.object: /) });
      expect(connector.unparsable).toEqual([]);
    });

    it(`handles a burst of frames in order: hello then what follows it, a run of results recorded each once (${transport})`, async () => {
      const connector = await connectVia();
      connector.send({ type: 'hello', v, connector_version: '1.0.0', books: BOOKS_RUNNING });
      connector.send({ type: 'ping', v, nonce: 'right-after-hello' });
      await connector.next('welcome');
      expect(await connector.next('pong')).toMatchObject({ nonce: 'right-after-hello' });
      const written = [await writeInvoice(relay.app, tenant, 'B/1'), await writeInvoice(relay.app, tenant, 'B/2'), await writeInvoice(relay.app, tenant, 'B/3')];
      for (const jobId of written) await connector.receiveJob(jobId);
      const acks = written.map((jobId) => connector.next('job.result.ack', (m) => m.job_id === jobId));
      for (const jobId of [...written, written[0] as string]) {
        connector.send({ type: 'job.result', v, job_id: jobId, outcome: { status: 'completed', books_voucher_guid: `g-${jobId}` } });
      }
      expect((await Promise.all(acks)).map((a) => a.disposition)).toEqual(['recorded', 'recorded', 'recorded']);
      expect(await connector.next('job.result.ack', (m) => m.job_id === written[0] && m.disposition === 'duplicate')).toBeDefined();
      for (const jobId of written) expect(await readTransaction(relay.app, tenant, jobId)).toMatchObject({ status: 'completed', books_voucher_guid: `g-${jobId}` });
      expect(connector.received.filter((m) => m.type === 'error')).toEqual([]);
    });

    it(`speaks job-runs when the connector asks for it: runs handed over, acknowledged and settled a message each (${transport})`, async () => {
      const connector = await connectVia();
      connector.send({ type: 'hello', v, connector_version: '1.1.0', books: BOOKS_RUNNING, features: ['job-runs', 'not-a-feature'] });
      expect((await connector.next('welcome')).features).toEqual(['job-runs']);
      const written = [await writeInvoice(relay.app, tenant, 'J/1'), await writeInvoice(relay.app, tenant, 'J/2'), await writeInvoice(relay.app, tenant, 'J/3')];
      const handed: string[] = [];
      while (handed.length < written.length) handed.push(...(await connector.next('jobs.assign')).jobs.map((job) => job.job_id));
      expect(handed).toEqual(written);
      expect(connector.received.some((m) => m.type === 'job.assign')).toBe(false);
      connector.send({ type: 'jobs.ack', v, job_ids: handed });
      connector.send({
        type: 'jobs.result',
        v,
        results: [
          ...written.map((jobId) => ({ job_id: jobId, outcome: { status: 'completed' as const, books_voucher_guid: `g-${jobId}` } })),
          { job_id: written[0] as string, outcome: { status: 'completed' as const, books_voucher_guid: 'g-again' } },
        ],
      });
      const ack = await connector.next('jobs.result.ack');
      expect(ack.acks).toEqual([...written.map((jobId) => ({ job_id: jobId, disposition: 'recorded' })), { job_id: written[0], disposition: 'duplicate' }]);
      for (const jobId of written) expect(await readTransaction(relay.app, tenant, jobId)).toMatchObject({ status: 'completed', books_voucher_guid: `g-${jobId}` });
      expect(connector.received.filter((m) => m.type === 'error' || m.type === 'job.result.ack')).toEqual([]);
    });

    it(`refuses an unknown protocol version and closes (${transport})`, async () => {
      const connector = await connectVia();
      connector.sendRaw(JSON.stringify({ type: 'hello', v: 99, connector_version: '9.0.0', books: BOOKS_RUNNING }));
      expect(await connector.next('error')).toMatchObject({ code: 'unsupported_version' });
      expect((await connector.closed).code).toBe(CloseCode.unsupportedVersion);
    });

    it(`replaces the first connection when the same connector connects again (${transport})`, async () => {
      const first = await connectVia();
      await first.hello();
      const jobId = await writeInvoice(relay.app, tenant, 'R/1');
      await first.receiveJob(jobId);
      const second = await connectVia();
      const welcome = await second.hello();
      expect(welcome.connector_id).toBe(enrolled.connector_id);
      expect(await first.next('error')).toMatchObject({ code: 'replaced' });
      expect((await first.closed).code).toBe(CloseCode.replaced);
      // The job the first connection held is delivered again, to the connection that replaced it.
      expect((await second.receiveJob(jobId)).attempt).toBe(2);
    });
  }
});

describeOnDatabases('connector session heartbeat', (kind) => {
  it('drops a connector that stops answering the heartbeat and requeues its job', async () => {
    const relay = await startRelay({ database: kind, env: { CONNECTOR_HEARTBEAT_MS: '150' } });
    try {
      const baseUrl = await relay.app.listen({ port: 0, host: '127.0.0.1' });
      const tenant = await createTenant(relay.app);
      const enrolled = await TestConnector.enroll(relay.app, { token: tenant.customerToken, machineName: 'PC-1' });
      await pairFromConnector(relay.app, enrolled.credential, tenant.companyId);
      const connector = await TestConnector.connect(baseUrl, enrolled.credential);
      await connector.hello();
      await connector.next('ping');
      const jobId = await writeInvoice(relay.app, tenant, 'H/1');
      await connector.receiveJob(jobId);
      connector.answerPings = false;
      const { code } = await connector.closed;
      expect(code).toBe(CloseCode.heartbeatTimeout);
      const requeued = await eventually('requeue after the heartbeat drop', () => readTransaction(relay.app, tenant, jobId), { until: (t) => t.status === 'queued' });
      expect(requeued.retry_count).toBe(1);
    } finally {
      await relay.close();
    }
  });
});

describeOnDatabases('connector job leases', (kind) => {
  it('assigns a job again when its lease runs out unanswered (at least once), and the first result settles it', async () => {
    const relay = await startRelay({ database: kind, env: { RELAY_WORKERS: '0', CONNECTOR_LEASE_MS: '200', CONNECTOR_CLAIM_INTERVAL_MS: '3600000' } });
    try {
      const baseUrl = await relay.app.listen({ port: 0, host: '127.0.0.1' });
      const tenant = await createTenant(relay.app);
      const enrolled = await TestConnector.enroll(relay.app, { token: tenant.customerToken, machineName: 'SLOW-PC' });
      await pairFromConnector(relay.app, enrolled.credential, tenant.companyId);
      const connector = await TestConnector.connect(baseUrl, enrolled.credential);
      await connector.hello();
      const jobId = await writeInvoice(relay.app, tenant, 'L/1');
      expect((await connector.receiveJob(jobId)).attempt).toBe(1);

      // The bridge's lease reaper requeues it; the queue's wake-up hands it to the same connector again.
      await eventually('lease expiry', () => relay.app.bridge.jobQueue.expireLeases(), { until: (requeued) => requeued > 0 });
      const again = await connector.next('job.assign', (m) => m.job.job_id === jobId);
      expect(again.job.attempt).toBe(2);
      expect((await connector.complete(jobId, { books_voucher_guid: 'guid-l1' })).disposition).toBe('recorded');
      expect((await connector.complete(jobId, { books_voucher_guid: 'guid-l1' })).disposition).toBe('duplicate');
      expect(await readTransaction(relay.app, tenant, jobId)).toMatchObject({ status: 'completed', retry_count: 1, books_voucher_guid: 'guid-l1' });
      await connector.close();
    } finally {
      await relay.close();
    }
  });
});

describeOnDatabases('connector job leases while the connector is here', (kind) => {
  it('renews the lease of a job the connector confirmed it stored, so stalled books cost no retry; an unconfirmed one still runs out', async () => {
    // The heartbeat runs (it renews); the lease reaper is left to the test. It checks leases every 500 ms,
    // often enough for a 2 s lease renewed at half, and drops a connector only after 750 ms of silence:
    // at 100 ms (150 ms of silence) a test process stalled by a busy machine lost its session, and its
    // jobs went back to the queue before any lease could run out.
    const relay = await startRelay({ database: kind, env: { CONNECTOR_LEASE_MS: '2000', CONNECTOR_HEARTBEAT_MS: '500', CONNECTOR_CLAIM_INTERVAL_MS: '3600000', BRIDGE_LEASE_REAPER_INTERVAL_MS: '3600000' } });
    try {
      const baseUrl = await relay.app.listen({ port: 0, host: '127.0.0.1' });
      const tenant = await createTenant(relay.app);
      const enrolled = await TestConnector.enroll(relay.app, { token: tenant.customerToken, machineName: 'DIALOG-PC' });
      await pairFromConnector(relay.app, enrolled.credential, tenant.companyId);
      const connector = await TestConnector.connect(baseUrl, enrolled.credential);
      await connector.hello();
      const held = await writeInvoice(relay.app, tenant, 'H/1');
      await connector.receiveJob(held); // acknowledged: stored by the connector, waiting on the books
      const lost = await writeInvoice(relay.app, tenant, 'H/2');
      await connector.next('job.assign', (m) => m.job.job_id === lost); // never acknowledged
      const leaseOf = async (jobId: string) =>
        (await relay.app.database.db.selectFrom('transactions').select('lease_expires_at').where('job_id', '=', jobId).executeTakeFirstOrThrow()).lease_expires_at;
      const firstLease = await leaseOf(held);

      await eventually('the held job’s lease to be renewed', () => leaseOf(held), { until: (lease) => lease !== firstLease });
      // The unacknowledged job's lease runs out (at least once: it goes out again); the held one's does not.
      await eventually('the unacknowledged lease to run out', () => relay.app.bridge.jobQueue.expireLeases(), { until: (requeued) => requeued > 0 });
      expect((await connector.next('job.assign', (m) => m.job.job_id === lost)).job.attempt).toBe(2);
      expect(await readTransaction(relay.app, tenant, held)).toMatchObject({ status: 'processing', retry_count: 0 });
      expect((await connector.complete(held, { books_voucher_guid: 'guid-h1' })).disposition).toBe('recorded');
      expect(await readTransaction(relay.app, tenant, held)).toMatchObject({ status: 'completed', retry_count: 0 });
      await connector.close();
    } finally {
      await relay.close();
    }
  });
});

describeOnDatabases('connector sessions at relay shutdown', (kind) => {
  it('ends open sessions with 1001 (going away) and hands their jobs back before the database closes, at no cost of a retry', async () => {
    const relay = await startRelay({ database: kind, env: { RELAY_WORKERS: '0' } });
    let reopened: FastifyInstance | undefined;
    try {
      const baseUrl = await relay.app.listen({ port: 0, host: '127.0.0.1' });
      const tenant = await createTenant(relay.app);
      const enrolled = await TestConnector.enroll(relay.app, { token: tenant.customerToken, machineName: 'PC-S' });
      await pairFromConnector(relay.app, enrolled.credential, tenant.companyId);
      const connector = await TestConnector.connect(baseUrl, enrolled.credential);
      await connector.hello();
      const jobId = await writeInvoice(relay.app, tenant, 'Z/1');
      await connector.receiveJob(jobId);

      await relay.app.close();
      expect((await connector.closed).code).toBe(CloseCode.goingAway);
      reopened = (await startRelay({ config: relay.config })).app;
      // The relay went, not the connector: a deploy does not bring the job nearer to CONNECTOR_OFFLINE.
      expect(await readTransaction(reopened, tenant, jobId)).toMatchObject({ status: 'queued', retry_count: 0 });
    } finally {
      await reopened?.close();
      await relay.testDatabase.drop();
    }
  });

  it('ends the socket of an upgrade that reaches a relay already closing (answered 503 before any hook), so the close does not wait on it', async () => {
    const relay = await startRelay({ database: kind, env: { RELAY_WORKERS: '0' } });
    try {
      const baseUrl = await relay.app.listen({ port: 0, host: '127.0.0.1' });
      const tenant = await createTenant(relay.app);
      const enrolled = await TestConnector.enroll(relay.app, { token: tenant.customerToken, machineName: 'PC-U' });
      // Hold the shutdown in its preClose hooks (where the gateway ends its sessions), with the port still open.
      const gateway = relay.app.gateway.sessions;
      const closeGateway = gateway.close.bind(gateway);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let gatewayClosing!: () => void;
      const closingStarted = new Promise<void>((resolve) => (gatewayClosing = resolve));
      gateway.close = async () => {
        gatewayClosing();
        await held;
        await closeGateway();
      };
      const closed = relay.app.close();
      await closingStarted;
      await expect(TestConnector.connect(baseUrl, enrolled.credential)).rejects.toMatchObject({ status: 503 });
      release();
      await closed;
    } finally {
      await relay.testDatabase.drop();
    }
  });

  it('turns away a connector that dials back while the relay shuts down, so the close does not wait on its socket', async () => {
    const relay = await startRelay({ database: kind, env: { RELAY_WORKERS: '0' } });
    try {
      const baseUrl = await relay.app.listen({ port: 0, host: '127.0.0.1' });
      const tenant = await createTenant(relay.app);
      const enrolled = await TestConnector.enroll(relay.app, { token: tenant.customerToken, machineName: 'PC-R' });
      const first = await TestConnector.connect(baseUrl, enrolled.credential);
      await first.hello();
      // The gateway has ended its sessions (app.close's first step); the port still takes connections.
      await relay.app.gateway.sessions.close();
      expect((await first.closed).code).toBe(CloseCode.goingAway);
      const redial = await TestConnector.connect(baseUrl, enrolled.credential);
      expect(await redial.closed).toEqual({ code: CloseCode.goingAway, reason: 'the relay is shutting down' });
      await relay.app.close();
    } finally {
      await relay.testDatabase.drop();
    }
  });
});
