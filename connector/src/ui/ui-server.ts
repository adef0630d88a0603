// The local web UI's server: 127.0.0.1 only, a random port unless one is asked for, and a fresh token per
// start carried in the page's URL. Every API call must present the token (header x-ui-token) and a Host of
// this loopback address (a web page elsewhere cannot rebind a name onto it); bodies are JSON only, which
// a cross-site form cannot send. The page is the Preact app under ./browser: bundled in memory at start,
// or read pre-built from `pageDir` (the Electron package), see page-bundle.ts.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConnectorService } from '../core/service/connector-service.js';
import { ASSET_PATH, connectorPageBundle, readPageFiles, type PageBundle } from './page-bundle.js';
import { handleUiApi, UiRequestError, type UiApiHooks } from './ui-api.js';

const SECURITY_HEADERS = {
  'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};
/** The page and the API are never cached: the token and the state change with every start. */
const NO_STORE = { 'cache-control': 'no-store' };
/** Hashed asset names change with their content. */
const IMMUTABLE = { 'cache-control': 'public, max-age=31536000, immutable' };
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
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...SECURITY_HEADERS, ...NO_STORE });
  response.end(JSON.stringify(body));
}

/** Serves the page's index or one of its assets; false when the path is neither. */
function sendPage(page: PageBundle, pathname: string, response: http.ServerResponse): boolean {
  if (pathname === '/' || pathname === '/index.html') {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...SECURITY_HEADERS, ...NO_STORE });
    response.end(page.indexHtml);
    return true;
  }
  if (!pathname.startsWith(ASSET_PATH)) return false;
  const asset = page.assets.get(pathname.slice(ASSET_PATH.length));
  if (asset === undefined) {
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS, ...NO_STORE });
    response.end('No such file: the connector may have been updated since this page was opened. Reload the page.');
    return true;
  }
  response.writeHead(200, { 'content-type': asset.contentType, ...SECURITY_HEADERS, ...IMMUTABLE });
  response.end(asset.body);
  return true;
}

export type UiServerOptions = Readonly<{
  port?: number;
  /** A folder holding the page pre-built (the Windows and Electron packages); the page is bundled in memory when left out. */
  pageDir?: string;
  /** Called when the page (or `connector stop`) asks this connector to stop; without it such a request is refused. */
  onStopRequested?: () => void;
}>;

export async function startUiServer(service: ConnectorService, options: UiServerOptions = {}): Promise<UiServer> {
  // Built (or read) before listening, so a broken page stops the start rather than the first visit.
  const page = options.pageDir === undefined ? await connectorPageBundle() : readPageFiles(options.pageDir);
  const token = randomBytes(24).toString('base64url');
  const hooks: UiApiHooks = options.onStopRequested === undefined ? {} : { requestStop: options.onStopRequested };
  let allowedHosts: Set<string> = new Set();
  const server = http.createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (!allowedHosts.has(request.headers.host ?? '')) return send(response, 421, { error: 'unexpected Host' });
      if (request.method === 'GET' && sendPage(page, url.pathname, response)) return;
      if (!url.pathname.startsWith('/api/')) return send(response, 404, { error: 'not found' });
      if (!sameToken(request.headers['x-ui-token'] as string | undefined, token)) {
        return send(response, 401, { error: "this page's address is out of date (the connector started again since): open the address it printed, or its window, again" });
      }
      if (request.method === 'POST' && !/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
        return send(response, 415, { error: 'send JSON' });
      }
      const body = request.method === 'POST' ? await readBody(request) : undefined;
      const result = await handleUiApi(service, request.method ?? 'GET', url.pathname, body, hooks);
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
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
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
