// Calls the relay's operator API with the operator token, and turns every failure into a sentence a
// person can act on (ApiError.message), keeping the code and field details for the page to show.
import type { ErrorEnvelopeOut } from '@ledgerwire/shared';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
    readonly details: readonly string[],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export type ApiClient = Readonly<{
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  patch<T>(path: string, body: unknown): Promise<T>;
  del<T>(path: string): Promise<T>;
}>;

/** `onUnauthorised` runs when the relay no longer accepts the token (rotated, or a wrong one). */
export function createApiClient(token: string, onUnauthorised: () => void): ApiClient {
  async function send<T>(method: Method, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(path, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch {
      throw new ApiError('The relay could not be reached. Check that it is running and that this computer can reach it, then try again.', 0, undefined, []);
    }
    const parsed: unknown = await response.json().catch(() => undefined);
    if (response.ok) return parsed as T;
    if (response.status === 401) onUnauthorised();
    throw toApiError(response.status, parsed);
  }
  return {
    get: (path) => send('GET', path),
    post: (path, body) => send('POST', path, body ?? {}),
    patch: (path, body) => send('PATCH', path, body),
    del: (path) => send('DELETE', path),
  };
}

function toApiError(status: number, parsed: unknown): ApiError {
  const error = (parsed as Partial<ErrorEnvelopeOut> | undefined)?.error;
  if (error && typeof error === 'object') {
    const details = (error.details ?? []).map((d) => d.message).filter((m) => m !== error.message);
    return new ApiError(error.message, status, error.code, details);
  }
  if (status === 404) return new ApiError('That was not found. It may have been deleted, or this relay is older than the console expects.', status, undefined, []);
  if (status >= 500) return new ApiError('The relay failed to answer this request. Try again; if it keeps failing, the relay’s log says why.', status, undefined, []);
  return new ApiError(`The relay refused the request (HTTP ${status}).`, status, undefined, []);
}

/** Builds a path with a query string, leaving out empty values. */
export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

export function describeError(error: unknown): string {
  if (error instanceof ApiError) return [error.message, ...error.details].join(' ');
  return error instanceof Error ? error.message : String(error);
}
