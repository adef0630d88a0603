// A webhook endpoint for tests: a real HTTP server on a random port that answers 204 and keeps every
// delivery's headers and raw body, so a test can verify signatures exactly as an integrator would.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type CaughtDelivery = Readonly<{ headers: http.IncomingHttpHeaders; body: string }>;

export type WebhookCatcher = Readonly<{
  /** The endpoint's address, at `path`. */
  url: (path?: string) => string;
  /** Every delivery so far, in the order they arrived. */
  received: CaughtDelivery[];
  close: () => Promise<void>;
}>;

export async function startWebhookCatcher(): Promise<WebhookCatcher> {
  const received: CaughtDelivery[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(204).end();
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
