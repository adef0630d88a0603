// The hosted connect page's calls to the relay: its state and the choice of company, under the page
// token taken from the page's own address. Failures become sentences a shop owner can act on.
import type { ConnectPageOut } from '@ledgerwire/shared';

export class ConnectPageError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
    this.name = 'ConnectPageError';
  }
}

export type ConnectApi = Readonly<{
  state(): Promise<ConnectPageOut>;
  choose(booksCompanyGuid: string): Promise<ConnectPageOut>;
  installerUrl: string;
}>;

/** The page token is the last segment of /connect/{token}; the setup code rides in the fragment (#code=…). */
export function pageLocation(location: Location): { token: string; setupCode: string | undefined } {
  const token = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() ?? '');
  const code = new URLSearchParams(location.hash.replace(/^#/, '')).get('code') ?? undefined;
  return { token, setupCode: code && /^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/.test(code) ? code : undefined };
}

export function createConnectApi(token: string): ConnectApi {
  const base = `/connect/${encodeURIComponent(token)}`;
  async function send(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ConnectPageOut> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch {
      throw new ConnectPageError('This page could not reach the service. Check your internet connection; the page tries again by itself.', 0);
    }
    const parsed = (await response.json().catch(() => undefined)) as { error?: { message?: string } } | undefined;
    if (response.ok) return parsed as unknown as ConnectPageOut;
    throw new ConnectPageError(parsed?.error?.message ?? `The service answered ${response.status}. Try again in a moment.`, response.status);
  }
  return {
    state: () => send('GET', '/state'),
    choose: (books_company_guid) => send('POST', '/choose', { books_company_guid }),
    installerUrl: `${base}/installer`,
  };
}
