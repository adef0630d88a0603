// One webhook HTTP request: POST the signed body, give the receiver a fixed time to answer, and report
// what happened (status, duration, a readable error) without ever throwing. Redirects are not followed
// (a 3xx is a failure, as Standard Webhooks says), and the socket dials only addresses the URL policy
// accepted.
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import type { SocketLookup } from './webhook-url-policy.js';

export type SendOutcome = Readonly<{
  statusCode: number | null;
  durationMs: number;
  /** null when the receiver answered 2xx. */
  error: string | null;
  retryAfter: string | undefined;
}>;

export async function postWebhook(request: {
  url: URL;
  headers: Readonly<Record<string, string>>;
  body: string;
  timeoutMs: number;
  lookup: SocketLookup;
}): Promise<SendOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const signal = AbortSignal.timeout(request.timeoutMs);
  const transport = request.url.protocol === 'https:' ? https : http;
  return new Promise<SendOutcome>((resolve) => {
    const req = transport.request(
      request.url,
      {
        method: 'POST',
        headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
        lookup: request.lookup,
        signal,
      },
      (res) => {
        // The status is the answer; the body is drained (and dropped) so a kept-alive socket can be reused.
        res.resume();
        res.on('error', () => undefined);
        const statusCode = res.statusCode ?? 0;
        const ok = statusCode >= 200 && statusCode < 300;
        const retryAfter = res.headers['retry-after'];
        resolve({
          statusCode,
          durationMs: elapsed(),
          error: ok ? null : `The receiver answered ${statusCode}${statusCode >= 300 && statusCode < 400 ? ' (redirects are not followed)' : ''}`,
          retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
        });
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      resolve({ statusCode: null, durationMs: elapsed(), error: describeFailure(error, signal, request.timeoutMs), retryAfter: undefined });
    });
    req.end(request.body);
  });
}

function describeFailure(error: NodeJS.ErrnoException, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted) return `No answer within ${timeoutMs} ms`;
  switch (error.code) {
    case 'WEBHOOK_URL_REFUSED':
      return `Refused: ${error.message}`;
    case 'ECONNREFUSED':
      return 'Connection refused';
    case 'ECONNRESET':
      return 'Connection reset by the receiver';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Host not found (${error.code})`;
    case 'ETIMEDOUT':
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
      return `Receiver unreachable (${error.code})`;
    default:
      return error.code ? `${error.message} (${error.code})` : error.message;
  }
}
