// Presence as an integrator's webhook endpoint sees it, with a real relay, the emulator and the connector:
// events arrive in the order things happened, each change once, and a connector restarted while the
// books run announces no "books stopped" for the moment before it asked them (its hello carries what
// the books answered). connector.offline, published after the grace period, closes the record.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '@ledgerwire/test-kit';
import type { ConnectorHandle } from '../src/index.js';
import { enrolAndPair, startConnector } from './helpers/connected-connector.js';
import { startTestEmulator, tempDataDir, type TestEmulator } from './helpers/test-emulator.js';
import { startCustomerRelay, type CustomerRelay } from './helpers/customer-relay.js';

/** An integrator's endpoint on 127.0.0.1: answers 200 at once and keeps the event types in arrival order. */
async function startReceiver(): Promise<{ url: string; types: string[]; close(): Promise<void> }> {
  const types: string[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      types.push((JSON.parse(body) as { type: string }).type);
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks`, types, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

let relay: CustomerRelay;
let books: TestEmulator;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let connector: ConnectorHandle | undefined;

beforeEach(async () => {
  relay = await startCustomerRelay({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: '1', CONNECTOR_HEARTBEAT_MS: '1000', CONNECTOR_OFFLINE_GRACE_MS: '3000' } });
  books = await startTestEmulator();
  receiver = await startReceiver();
  await relay.api('POST', '/api/v1/webhooks', { url: receiver.url }, 200);
});
afterEach(async () => {
  await connector?.stop();
  connector = undefined;
  await relay.close();
  await books.close();
  await receiver.close();
});

const presence = (types: readonly string[]) => types.filter((type) => type.startsWith('books.') || type.startsWith('connector.'));

describe('presence webhooks', () => {
  it('arrive in order; a restart while the books run announces no stop', async () => {
    const dataDir = tempDataDir();
    const companyId = relay.companyIds[0] as number;
    const relayHears = (running: boolean) =>
      eventually(`the relay to hear running=${running}`, async () => (await relay.api('GET', `/api/v1/companies/${companyId}/health`)).books.running === running || undefined);
    connector = await startConnector(books, dataDir);
    await enrolAndPair(connector, relay, books);
    await eventually('connector.online and books.started', () => presence(receiver.types).length >= 2 || undefined);
    expect(presence(receiver.types)).toEqual(['connector.online', 'books.started']);

    // Restarted within the relay's grace period: not offline, and the books never stopped — though
    // they take a moment to answer the first question (as TallyPrime does), longer than the relay does.
    await connector.stop();
    await books.control('POST', '/latency', { ms: 300 });
    connector = await startConnector(books, dataDir);
    await eventually('the restarted connector to come online', () => (connector?.status().relay.state === 'online' && connector.status().books.running === true) || undefined);
    await books.control('POST', '/latency', { ms: 0 });

    // The books stop, then start: each is told once, in order.
    await books.control('POST', '/books/stop');
    await relayHears(false);
    await books.control('POST', '/books/start');
    await relayHears(true);
    // Gone for longer than the grace period: connector.offline comes last, after everything before it.
    await connector.stop();
    connector = undefined;
    await eventually('connector.offline', () => receiver.types.includes('connector.offline') || undefined, { timeoutMs: 20_000 });
    expect(presence(receiver.types)).toEqual(['connector.online', 'books.started', 'books.stopped', 'books.started', 'connector.offline']);
  });

  it('a books flap shorter than the confirmation publishes nothing; the connector itself saw it', async () => {
    connector = await startConnector(books, tempDataDir(), { booksStopConfirmMs: 60_000 });
    await enrolAndPair(connector, relay, books);
    await eventually('connector.online and books.started', () => presence(receiver.types).length >= 2 || undefined);
    await books.control('POST', '/books/stop');
    await eventually('the connector to see the books stopped', () => connector?.status().books.running === false || undefined);
    await books.control('POST', '/books/start');
    await eventually('the connector to see the books back', () => connector?.status().books.running === true || undefined);
    // Everything the relay was told before connector.offline has been published by then, in order.
    await connector.stop();
    connector = undefined;
    await eventually('connector.offline', () => receiver.types.includes('connector.offline') || undefined, { timeoutMs: 20_000 });
    expect(presence(receiver.types)).toEqual(['connector.online', 'books.started', 'connector.offline']);
  });
});
