// One webhook HTTP request: POST the signed body, give the receiver a fixed time to answer, and report
// what happened (status, duration, a readable error) without ever throwing. Redirects are not followed
// (a 3xx is a failure, as Standard Webhooks says), and the socket dials only addresses the URL policy
// accepted.
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import type { SocketLookup } from '../services/webhook-url-policy.js';

export type SendOutcome = Readonly<{
  statusCode: number | null;
  durationMs: number;
  /** null when the receiver answered 2xx. */
  error: string | null;
  retryAfter: string | undefined;
  /** The start of the response body (at most RESPONSE_EXCERPT_BYTES, as UTF-8); null when it sent none. */
  responseBody: string | null;
}>;

/** How much of a receiver's answer is kept with the attempt: enough to read an error page's message. */
export const RESPONSE_EXCERPT_BYTES = 4096;

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
        // The status is the answer; the start of the body is kept for support to read, the rest is
        // drained (and dropped) so a kept-alive socket can be reused. A receiver streaming a large
        // answer is not waited for beyond the excerpt.
        const statusCode = res.statusCode ?? 0;
        const ok = statusCode >= 200 && statusCode < 300;
        const retryAfter = res.headers['retry-after'];
        const chunks: Buffer[] = [];
        let kept = 0;
        let settled = false;
        const settle = () => {
          if (settled) return;
          settled = true;
          const body = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8');
          resolve({
            statusCode,
            durationMs: elapsed(),
            error: ok ? null : `The receiver answered ${statusCode}${statusCode >= 300 && statusCode < 400 ? ' (redirects are not followed)' : ''}`,
            retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
            responseBody: body === '' ? null : body,
          });
        };
        res.on('data', (chunk: Buffer) => {
          if (kept >= RESPONSE_EXCERPT_BYTES) return;
          chunks.push(chunk);
          kept += chunk.length;
          if (kept >= RESPONSE_EXCERPT_BYTES) settle();
        });
        res.on('end', settle);
        res.on('close', settle);
        res.on('error', settle);
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      resolve({ statusCode: null, durationMs: elapsed(), error: describeFailure(error, signal, request.timeoutMs), retryAfter: undefined, responseBody: null });
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
