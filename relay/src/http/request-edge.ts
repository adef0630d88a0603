// The checks every request meets before its route: the URL's path and query (NUL, ill-formed Unicode,
// malformed percent-encoding) on every route, found or not; and the refusals Node's HTTP parser makes
// before Fastify sees a request at all (headers over 16 KiB: 431, a timeout: 408, bytes that are not
// HTTP: 400), which would otherwise answer in Fastify's own body instead of the API family's.
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors/catalogue.js';
import { apiFamilyOf, errorBody } from '../errors/error-handler.js';
import { urlProblem } from './input-limits.js';

export function registerRequestEdge(app: FastifyInstance): void {
  // Callback style, not async: no promise per request for a check that never waits.
  app.addHook('onRequest', (request, _reply, done) => {
    done(urlProblem(request.url));
  });
}

/** The request target of the raw bytes Node could not parse (`GET /api/v1/x HTTP/1.1` → `/api/v1/x`), for the family. */
function requestTarget(rawPacket: unknown): string {
  if (!Buffer.isBuffer(rawPacket)) return '/';
  const line = rawPacket.subarray(0, 2048).toString('latin1').split('\r\n', 1)[0] ?? '';
  return line.split(' ')[1] ?? '/';
}

/** Fastify's `clientErrorHandler`: the same refusals as its default, in the family's body. */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const refusal =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new AppError('request_headers_too_large')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new AppError('request_timeout')
        : new AppError('bad_request', { message: 'The request is not valid HTTP/1.1' });
  this.log.debug({ err: error }, 'client error before routing');
  if (socket.writable) {
    const body = JSON.stringify(errorBody(apiFamilyOf(requestTarget(error.rawPacket)), refusal));
    const reason = refusal.status === 431 ? 'Request Header Fields Too Large' : refusal.status === 408 ? 'Request Timeout' : 'Bad Request';
    socket.write(
      `HTTP/1.1 ${refusal.status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
