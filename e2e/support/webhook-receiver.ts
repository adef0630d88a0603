// A local HTTP server standing in for an integrator's webhook endpoint: it answers each request with
// the next status from a script (then the last one for ever) and keeps what it received (the body and
// headers too, so a test can verify the signature).
import http from 'node:http';

export type WebhookReceiver = Readonly<{
  url: string;
  received: ReceivedWebhook[];
  close(): Promise<void>;
}>;

export type ReceivedWebhook = { type: string; status: number; body: string; headers: Record<string, string> };

export async function startWebhookReceiver(statuses: readonly number[]): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const status = statuses[Math.min(received.length, statuses.length - 1)] ?? 200;
      let type = 'unparsable';
      try {
        type = (JSON.parse(body) as { type?: string }).type ?? 'untyped';
      } catch {
        // kept as unparsable: the test will see it
      }
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      received.push({ type, status, body, headers });
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status >= 400 ? 'receiver says no' : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('webhook receiver has no port');
  return {
    url: `http://127.0.0.1:${address.port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
