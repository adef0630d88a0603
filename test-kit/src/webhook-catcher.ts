// A stand-in for an integrator's webhook endpoint: a real HTTP server on a random port that keeps every
// delivery's headers and raw body (so a test verifies signatures as an integrator would) and answers
// with the next status from a script (then the last one for ever), or as the test tells it, or never.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually } from './eventually.js';

export type CaughtDelivery = Readonly<{
  /** The payload's `type`, 'untyped' without one, 'unparsable' when not JSON. */
  type: string;
  /** The payload's `data` ({} without one). */
  data: Record<string, any>;
  /** What the catcher answered. */
  status: number;
  /** The path and query it was sent to. */
  path: string;
  /** Each header as one string, ready for a signature check. */
  headers: Record<string, string>;
  body: string;
}>;

/** How the catcher answers: a status (with headers), or never ('hang', until close). */
export type CatcherAnswer = Readonly<{ status: number; headers?: Record<string, string> }> | 'hang';

export type WebhookCatcher = Readonly<{
  /** The endpoint's address, at `path`. */
  url: (path?: string) => string;
  /** Every delivery so far, in the order they arrived. */
  received: CaughtDelivery[];
  /** The first `count` deliveries, once that many have arrived (the kit's eventually, default 15 s). */
  deliveries(count: number, timeoutMs?: number): Promise<CaughtDelivery[]>;
  /** Answers every following delivery so, instead of the script of statuses. */
  respondWith(answer: CatcherAnswer): void;
  close: () => Promise<void>;
}>;

export async function startWebhookCatcher(options: { statuses?: readonly number[] } = {}): Promise<WebhookCatcher> {
  const statuses = options.statuses ?? [204];
  const received: CaughtDelivery[] = [];
  let told: CatcherAnswer | undefined;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const answer = told ?? { status: statuses[Math.min(received.length, statuses.length - 1)] ?? 204 };
      const { type, data } = payloadOf(body);
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      received.push({ type, data, status: answer === 'hang' ? 0 : answer.status, path: request.url ?? '', headers, body });
      if (answer === 'hang') return;
      if (told !== undefined) response.writeHead(answer.status, answer.headers ?? {}).end('ok');
      else if (answer.status === 204) response.writeHead(204).end();
      else response.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.status >= 400 ? 'receiver says no' : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hooks') => `http://127.0.0.1:${port}${path}`,
    received,
    async deliveries(count, timeoutMs = 15_000) {
      await eventually(`${count} webhook deliveries`, () => (received.length >= count ? true : received.map((r) => r.type)), { timeoutMs, until: (value) => value === true });
      return received.slice(0, count);
    },
    respondWith(answer) {
      told = answer;
    },
    close: () => {
      // A held ('hang') or kept-alive connection would hold close() open.
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function payloadOf(body: string): { type: string; data: Record<string, any> } {
  try {
    const payload = JSON.parse(body) as { type?: string; data?: Record<string, any> };
    return { type: payload.type ?? 'untyped', data: payload.data ?? {} };
  } catch {
    return { type: 'unparsable', data: {} };
  }
}
