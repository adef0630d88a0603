// The connector's HTTP calls to the relay (enrolment, its customer's companies, pairing): JSON over
// node:http / node:https with one keep-alive agent per scheme. The same stack as the relay link (ws
// rides on node:http) and the books client, so a network fault reads the same whichever call met it,
// and connections to the relay are reused instead of opened per call. (Node's fetch, undici, keeps a
// pool of its own beside them; it also cannot connect under Wine, where the Windows build is tested.)
import http from 'node:http';
import https from 'node:https';

export type RelayHttpResponse = Readonly<{ status: number; body: unknown }>;

export type RelayHttpRequest = Readonly<{
  method: string;
  headers?: Readonly<Record<string, string>>;
  /** Sent as JSON when given. */
  json?: unknown;
  /** The whole exchange, connection to last byte; a TimeoutError past it. */
  timeoutMs: number;
}>;

/** Past this, an answer is not the relay's JSON and is not read further. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 4 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 4 }),
} as const;

function timeoutError(ms: number): Error {
  const error = new Error(`no answer within ${ms} ms`);
  error.name = 'TimeoutError';
  return error;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * One request; resolves with the status and the body parsed as JSON (undefined when it is not JSON),
 * rejects with the socket's own error (its `code` says what failed) or a TimeoutError.
 */
export function relayHttp(url: string, request: RelayHttpRequest): Promise<RelayHttpResponse> {
  const target = new URL(url);
  const transport = target.protocol === 'https:' ? https : http;
  const agent = target.protocol === 'https:' ? agents['https:'] : agents['http:'];
  const payload = request.json === undefined ? undefined : Buffer.from(JSON.stringify(request.json));
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  if (payload) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(payload.length);
  }
  return new Promise((resolve, reject) => {
    const outgoing = transport.request(target, { method: request.method, headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) {
          outgoing.destroy(new Error(`the answer from ${target.host} is larger than ${MAX_ANSWER_BYTES} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => {
        clearTimeout(timer);
        resolve({ status: response.statusCode ?? 0, body: parseJson(Buffer.concat(chunks).toString('utf8')) });
      });
      response.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    const timer = setTimeout(() => outgoing.destroy(timeoutError(request.timeoutMs)), request.timeoutMs);
    outgoing.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    outgoing.end(payload);
  });
}
