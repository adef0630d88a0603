// The request log: one line per answered request (method, path, status, milliseconds), at the level
// REQUEST_LOG chooses — `info` (the default), `debug` (only shown under LOG_LEVEL=debug) or `off`.
// Fastify's own pair of lines ("incoming request", "request completed") is turned off in app.ts: two
// lines per request at info level drowned everything else. Path parameters that are secrets (a
// customer token) are masked: the line is written before anyone could judge what it holds.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RequestLogLevel } from '../config/load-config.js';

/** Route parameters that carry a credential (the customer token of /api/v1/customers/{token}/rotate). */
const SECRET_PARAMS = new Set(['token']);

/** The request's path and query, with any secret path parameter replaced by [redacted]. */
export function loggableUrl(request: FastifyRequest): string {
  const params = request.params as Record<string, unknown> | undefined;
  let url = request.url;
  for (const [name, value] of Object.entries(params ?? {})) {
    if (!SECRET_PARAMS.has(name) || typeof value !== 'string' || value === '') continue;
    url = url.split(encodeURIComponent(value)).join('[redacted]').split(value).join('[redacted]');
  }
  return url;
}

export function registerRequestLog(app: FastifyInstance, level: RequestLogLevel): void {
  if (level === 'off') return;
  // Callback style: no promise per request for a hook that never waits.
  app.addHook('onResponse', (request, reply, done) => {
    request.log[level]({ method: request.method, url: loggableUrl(request), status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
    done();
  });
}
