// Calls the connector's local API with this start's token (from the page's address) and turns every
// failure into a sentence: the connector's own words for a refusal, or that it does not answer at all.
// The shapes are the connector's own types (type-only imports: nothing of the core enters the bundle).
import type { ConnectorCompanyOut } from '@ledgerwire/shared';
import type { ConnectorStatus } from '../../core/service/connector-status.js';
import type { JobView } from '../../core/service/job-view.js';
import type { LogEntry } from '../../core/state/log-store.js';

export type { ConnectorStatus, JobView, LogEntry };
export type PairingStatus = ConnectorStatus['pairings'][number];

/** A company of the customer at the relay, as GET /api/companies lists it. */
export type CustomerCompany = ConnectorCompanyOut;

export type CompanyLists = Readonly<{ books: readonly { guid: string; name: string }[]; customer: readonly CustomerCompany[]; problem: string | null }>;
export type SyncResult = Readonly<{ companyId: number; ok: boolean; summary: string }>;

export class LocalApiError extends Error {
  /** `answered`: false when nothing answered (the connector stopped, or started again elsewhere). */
  constructor(message: string, readonly answered: boolean) {
    super(message);
    this.name = 'LocalApiError';
  }
}

const NOT_ANSWERING =
  'The connector does not answer this page: it has stopped, or it started again at a new address. Open the address it printed (or its window) again; what is shown below may be out of date.';

export type LocalApi = Readonly<{
  status(): Promise<ConnectorStatus>;
  jobs(): Promise<{ jobs: JobView[] }>;
  log(): Promise<{ entries: LogEntry[] }>;
  companies(): Promise<CompanyLists>;
  enrol(input: { code: string; relay_url?: string; machine_name?: string; books_url?: string }): Promise<{ connectorId: string }>;
  setBooksUrl(booksUrl: string): Promise<ConnectorStatus['books']>;
  diagnostics(): Promise<{ text: string }>;
  pair(companyId: number, booksCompany: string): Promise<{ company: CustomerCompany }>;
  unpair(companyId: number): Promise<{ company_id: number }>;
  syncNow(): Promise<{ results: SyncResult[] }>;
}>;

export function createLocalApi(token: string): LocalApi {
  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(path, {
        method,
        headers: { 'x-ui-token': token, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
        ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}),
      });
    } catch {
      throw new LocalApiError(NOT_ANSWERING, false);
    }
    const parsed = (await response.json().catch(() => undefined)) as { error?: unknown } | undefined;
    if (response.ok) return parsed as T;
    const message = typeof parsed?.error === 'string' ? parsed.error : `the connector answered HTTP ${response.status}`;
    throw new LocalApiError(message, true);
  }
  return {
    status: () => call('GET', '/api/status'),
    jobs: () => call('GET', '/api/jobs'),
    log: () => call('GET', '/api/log'),
    companies: () => call('GET', '/api/companies'),
    enrol: (input) => call('POST', '/api/enrol', input),
    setBooksUrl: (booksUrl) => call('POST', '/api/books-url', { books_url: booksUrl }),
    diagnostics: () => call('GET', '/api/diagnostics'),
    pair: (companyId, booksCompany) => call('POST', '/api/pair', { company_id: companyId, books_company: booksCompany }),
    unpair: (companyId) => call('POST', '/api/unpair', { company_id: companyId }),
    syncNow: () => call('POST', '/api/sync-now'),
  };
}
