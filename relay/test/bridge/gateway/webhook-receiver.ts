// A webhook receiver on 127.0.0.1, port 0, for presence tests: records every delivery in arrival order
// (body and headers) and lets a test await the n-th one.
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceivedWebhook = Readonly<{ type: string; data: Record<string, unknown>; body: string; headers: Record<string, string> }>;

export type WebhookReceiver = Readonly<{
  url: string;
  received: ReceivedWebhook[];
  /** Resolves once `count` deliveries have arrived (with all of them); fails after the bound with what came. */
  waitFor(count: number, limitMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}>;

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const parsed = JSON.parse(body) as { type: string; data: Record<string, unknown> };
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
      received.push({ type: parsed.type, data: parsed.data, body, headers });
      response.writeHead(204).end();
      for (const waiter of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    async waitFor(count, limitMs = 15_000) {
      if (received.length < count) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`${count} webhooks expected, ${received.length} arrived: ${received.map((r) => r.type).join(', ')}`)), limitMs);
          timer.unref();
          waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
        });
      }
      return received.slice(0, count);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
