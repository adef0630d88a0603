// Every test call names the status it expects, so an unexpected answer fails where it happened, with
// the method, URL, status and body, instead of as an undefined field three lines later.
import http from 'node:http';
import type { FastifyInstance, InjectOptions } from 'fastify';

/** An in-process app (called through inject), a listening relay's base URL, or anything holding an app. */
export type CallTarget = FastifyInstance | string | Readonly<{ app: FastifyInstance }>;

export type CallOptions = Omit<InjectOptions, 'method' | 'url' | 'payload' | 'body'> & {
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** An object or array goes as JSON; a string or Buffer as it is. */
  payload?: unknown;
};

export type CallResult<T> = Readonly<{
  /** The body parsed as JSON, or its text when it is not JSON. */
  body: T;
  headers: Record<string, string | number | string[] | undefined>;
  /** The body as it arrived. */
  text: string;
}>;

export async function call<T = any>(
  target: CallTarget,
  method: string | undefined,
  url: string,
  expectedStatus: number,
  options: CallOptions = {},
): Promise<CallResult<T>> {
  const { token, headers, ...rest } = options;
  const allHeaders = { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...headers };
  const response =
    typeof target === 'string'
      ? await overHttp(target, method ?? 'GET', url, allHeaders, rest)
      : await inApp('app' in target && !('inject' in target) ? target.app : (target as FastifyInstance), method, url, allHeaders, rest);
  const where = typeof target === 'string' ? `${target}${url}` : url;
  if (response.status !== expectedStatus) {
    throw new Error(`${method ?? 'GET'} ${where} answered ${response.status}, expected ${expectedStatus}: ${response.text.slice(0, 2000)}`);
  }
  let body: unknown = response.text;
  try {
    body = JSON.parse(response.text);
  } catch {
    // not JSON: the text is the body
  }
  return { body: body as T, headers: response.headers, text: response.text };
}

type RawResponse = { status: number; text: string; headers: CallResult<unknown>['headers'] };

async function inApp(
  app: FastifyInstance,
  method: string | undefined,
  url: string,
  headers: InjectOptions['headers'],
  rest: Omit<CallOptions, 'token' | 'headers'>,
): Promise<RawResponse> {
  const { payload, ...others } = rest;
  const response = await app.inject({
    method: (method ?? 'GET') as NonNullable<InjectOptions['method']>,
    url,
    headers,
    ...others,
    ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
  });
  return { status: response.statusCode, text: response.body, headers: response.headers };
}

/** node:http rather than fetch: the connector suites run Windows programs under Wine, where fetch breaks. */
function overHttp(baseUrl: string, method: string, url: string, headers: InjectOptions['headers'], rest: Omit<CallOptions, 'token' | 'headers'>): Promise<RawResponse> {
  const { payload, query, ...unsupported } = rest;
  const extra = Object.keys(unsupported);
  if (extra.length > 0) return Promise.reject(new Error(`call over HTTP cannot send ${extra.join(', ')}`));
  const target = new URL(url, baseUrl);
  if (query !== undefined) {
    for (const [name, value] of Object.entries(typeof query === 'string' ? Object.fromEntries(new URLSearchParams(query)) : query)) {
      for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) target.searchParams.append(name, String(one));
    }
  }
  const requestHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined) requestHeaders[name.toLowerCase()] = String(value);
  let data: Buffer | undefined;
  if (payload !== undefined) {
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) data = Buffer.from(payload);
    else {
      data = Buffer.from(JSON.stringify(payload));
      requestHeaders['content-type'] ??= 'application/json';
    }
  }
  return new Promise((resolve, reject) => {
    // agent: false, a connection per call: a kept one the server already closed would fail the next call.
    const request = http.request(target, { method, headers: requestHeaders, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), headers: response.headers }));
    });
    request.on('error', reject);
    request.end(data);
  });
}
