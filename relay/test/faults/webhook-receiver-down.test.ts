// Fault matrix, in-process part: an integrator's webhook receiver is down for hours (nothing listens on
// its port) while events keep coming, then comes back. Time moves through the injected clock, not real
// hours. Every event reaches it exactly once (by its webhook-id), none is dropped or left pending, the
// endpoint is not disabled (that takes five days of failures), and the report says how long after the
// receiver's return the backlog took to arrive, in simulated minutes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import type { WebhookOwner } from '../../src/webhooks/index.js';
import { describeOnDatabases } from '@ledgerwire/test-kit';
import { startEngine, type TestEngine } from '../webhooks/webhook-test-kit.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DOWN_FOR = 6 * HOUR;
const EVENTS = 60;
const application: WebhookOwner = { kind: 'application', id: 'app_fault' };

/** A receiver on a fixed port that can go away entirely and come back on the same port. */
class FlakyReceiver {
  readonly ids: string[] = [];
  private server: http.Server | undefined;
  port = 0;

  async up(): Promise<void> {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        this.ids.push(String(req.headers['webhook-id']));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describeOnDatabases('fault matrix: the webhook receiver down for hours', (kind) => {
  let engine: TestEngine | undefined;
  const receiver = new FlakyReceiver();
  afterEach(async () => {
    await receiver.down();
    await engine?.close();
    engine = undefined;
  });

  it('delivers every event exactly once after six hours down, none lost, none stuck', async () => {
    engine = await startEngine(kind, { requestTimeoutMs: 500 });
    await receiver.up();
    const url = `http://127.0.0.1:${receiver.port}/hooks`;
    const { endpoint } = await engine.service.createEndpoint(application, { url, events: ['connector.online', 'connector.offline'] });
    await receiver.down();

    // Events arrive over the first hour while nothing listens; the loop keeps trying.
    const published: string[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const { event_id } = await engine.service.publish(application, { type: i % 2 === 0 ? 'connector.online' : 'connector.offline', data: { company_id: i + 1, machine: 'PC' } });
      published.push(event_id);
      if (i % 10 === 9) {
        engine.clock.advance(10 * MINUTE);
        await engine.loop.runOnce();
      }
    }
    let elapsed = HOUR;
    while (elapsed < DOWN_FOR) {
      engine.clock.advance(5 * MINUTE);
      elapsed += 5 * MINUTE;
      await engine.loop.runOnce();
    }
    expect(receiver.ids).toEqual([]);

    await receiver.up();
    let recoveredAfter = 0;
    while (receiver.ids.length < EVENTS && recoveredAfter < 30 * HOUR) {
      engine.clock.advance(5 * MINUTE);
      recoveredAfter += 5 * MINUTE;
      await engine.loop.runOnce();
    }
    const { deliveries } = await engine.service.listDeliveries(application, endpoint.id, { limit: 500, offset: 0 });
    expect(deliveries).toHaveLength(EVENTS);
    const pending = deliveries.filter((d) => d.status !== 'succeeded');
    const distinct = new Set(receiver.ids);
    const lost = published.filter((id) => !distinct.has(id)).length;
    const duplicated = receiver.ids.length - distinct.size;
    process.stdout.write(
      `${lost + duplicated + pending.length === 0 ? 'ok  ' : 'FAIL'} webhook receiver down ${DOWN_FOR / HOUR} h (${kind})`.padEnd(52) +
        ` events ${EVENTS}  lost ${lost}  duplicated ${duplicated}  stuck ${pending.length}  recovered in ${recoveredAfter / MINUTE} simulated min\n`,
    );
    expect({ lost, duplicated, stuck: pending.length }).toEqual({ lost: 0, duplicated: 0, stuck: 0 });
    expect(await engine.service.getEndpoint(application, endpoint.id)).toMatchObject({ enabled: true });
  });
});
