// Serves the console: index.html at /console (no-cache, so a new relay version is picked up at once)
// and the hashed script and stylesheet under /console/assets (cached for a year: names change with
// content). A strict Content-Security-Policy: only our own scripts; inline styles are allowed so the
// template preview (a sandboxed iframe without scripts) shows e-mail HTML as a mail client would.
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { readConsoleBundle } from '../services/console-bundle.js';

const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "frame-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

function secureHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', CONTENT_SECURITY_POLICY)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY');
}

export const consoleAssetRoutes: FastifyPluginAsync = async (app) => {
  // Read before the app is ready, so a missing build stops the relay at start, not at first visit.
  const bundle = readConsoleBundle();

  const sendIndex = (_request: unknown, reply: FastifyReply) =>
    secureHeaders(reply).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(bundle.indexHtml);

  // The hosted connect page (app/connect/): the path carries the session's page token, so these
  // requests stay out of the info-level request log.
  app.get('/connect/:token', { schema: { hide: true }, logLevel: 'warn' }, (_request, reply) =>
    secureHeaders(reply).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(bundle.connectHtml),
  );

  app.get('/console', { schema: { hide: true } }, sendIndex);
  app.get('/console/', { schema: { hide: true } }, sendIndex);

  app.get<{ Params: { name: string } }>('/console/assets/:name', { schema: { hide: true } }, async (request, reply) => {
    const asset = bundle.assets.get(request.params.name);
    if (asset === undefined) {
      return reply.code(404).type('text/plain; charset=utf-8').send('No such console asset (the relay may have been updated: reload the page)');
    }
    return secureHeaders(reply).header('cache-control', 'public, max-age=31536000, immutable').type(asset.contentType).send(asset.body);
  });
};
