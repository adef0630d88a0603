// A stand-in for an integrator's webhook endpoint: a real HTTP server on a random port that keeps every
// delivery's headers and raw body (so a test verifies signatures as an integrator would) and answers
// with the next status from a script (then the last one for ever).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type CaughtDelivery = Readonly<{
  /** The payload's `type`, 'untyped' without one, 'unparsable' when not JSON. */
  type: string;
  /** What the catcher answered. */
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}>;

export type WebhookCatcher = Readonly<{
  /** The endpoint's address, at `path`. */
  url: (path?: string) => string;
  /** Every delivery so far, in the order they arrived. */
  received: CaughtDelivery[];
  close: () => Promise<void>;
}>;

export async function startWebhookCatcher(options: { statuses?: readonly number[] } = {}): Promise<WebhookCatcher> {
  const statuses = options.statuses ?? [204];
  const received: CaughtDelivery[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const status = statuses[Math.min(received.length, statuses.length - 1)] ?? 204;
      received.push({ type: typeOf(body), status, headers: request.headers, body });
      if (status === 204) response.writeHead(204).end();
      else response.writeHead(status, { 'content-type': 'text/plain' }).end(status >= 400 ? 'receiver says no' : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hooks') => `http://127.0.0.1:${port}${path}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function typeOf(body: string): string {
  try {
    return (JSON.parse(body) as { type?: string }).type ?? 'untyped';
  } catch {
    return 'unparsable';
  }
}
