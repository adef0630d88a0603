// The local web UI's server: 127.0.0.1 only, a random port unless one is asked for, and a fresh token per
// start carried in the page's URL. Every API call must present the token (header x-ui-token) and a Host of
// this loopback address (a web page elsewhere cannot rebind a name onto it); bodies are JSON only, which
// a cross-site form cannot send. The page itself is static HTML/CSS/JS from ./browser.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConnectorService } from '../core/service/connector-service.js';
import { handleUiApi, UiRequestError } from './ui-api.js';

const ASSETS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'browser');
const STATIC: Readonly<Record<string, { file: string; type: string }>> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/index.html': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/style.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
};
const SECURITY_HEADERS = {
  'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};
const MAX_BODY = 64 * 1024;

export type UiServer = Readonly<{ url: string; close(): Promise<void> }>;

function sameToken(given: string | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function readBody(request: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new UiRequestError(413, 'the request is too large'));
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on('end', () => {
      if (chunks.length === 0) return resolve({});
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(new UiRequestError(400, 'the request body is not JSON'));
      }
    });
    request.on('error', reject);
  });
}

function send(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...SECURITY_HEADERS });
  response.end(JSON.stringify(body));
}

export async function startUiServer(service: ConnectorService, port = 0): Promise<UiServer> {
  const token = randomBytes(24).toString('base64url');
  let allowedHosts: Set<string> = new Set();
  const server = http.createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (!allowedHosts.has(request.headers.host ?? '')) return send(response, 421, { error: 'unexpected Host' });
      const asset = request.method === 'GET' ? STATIC[url.pathname] : undefined;
      if (asset) {
        response.writeHead(200, { 'content-type': asset.type, ...SECURITY_HEADERS });
        response.end(await fs.promises.readFile(path.join(ASSETS, asset.file)));
        return;
      }
      if (!url.pathname.startsWith('/api/')) return send(response, 404, { error: 'not found' });
      if (!sameToken(request.headers['x-ui-token'] as string | undefined, token)) {
        return send(response, 401, { error: "this page's address is out of date (the connector started again since): open the address it printed, or its window, again" });
      }
      if (request.method === 'POST' && !/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
        return send(response, 415, { error: 'send JSON' });
      }
      const body = request.method === 'POST' ? await readBody(request) : undefined;
      const result = await handleUiApi(service, request.method ?? 'GET', url.pathname, body);
      send(response, 200, result);
    })().catch((error: unknown) => {
      if (error instanceof UiRequestError) send(response, error.status, { error: error.message });
      else {
        service.log.error(`local UI request failed: ${error instanceof Error ? error.message : String(error)}`);
        send(response, 500, { error: 'the connector could not do that; see the log' });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  allowedHosts = new Set([`127.0.0.1:${actual}`, `localhost:${actual}`]);
  return {
    url: `http://127.0.0.1:${actual}/?token=${token}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
