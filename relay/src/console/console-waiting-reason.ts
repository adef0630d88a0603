// Why writes wait, for the console: one transaction's reason is the bridge's own (deriveWaitingReason
// in bridge/jobs/waiting-reason.ts, the words the API gives), and a company's is the same question
// asked of its queue as a whole — what blocks every write of it, else how many the books are importing.
import { booksCompanyOpen, type WaitingReasonOut } from '@ledgerwire/shared';
import { parseOpenCompanies } from '../bridge/connectors/connector-repository.js';
import { deriveWaitingReason, type WaitingConnectorFacts } from '../bridge/jobs/waiting-reason.js';

/** A connector row's presence columns, as the console's queries select them. */
export type ConnectorColumns = Readonly<{
  machine_name: string | null;
  online: number | null;
  connected: number | null;
  books_running: number | null;
  open_companies: string | null;
  last_seen_at: string | null;
}>;

export type CompanyPairing = Readonly<{
  connector_id: string | null;
  books_company_guid: string | null;
  books_company_name: string | null;
}>;

/** The connector's facts, or undefined when the row is missing (left join found nothing). */
export function connectorFacts(row: ConnectorColumns): WaitingConnectorFacts | undefined {
  if (row.machine_name === null) return undefined;
  return {
    machine_name: row.machine_name,
    // Online means a socket of the current session is open and the online state is published.
    online: Number(row.online) === 1 && Number(row.connected) === 1,
    books_running: Number(row.books_running) === 1,
    open_companies: parseOpenCompanies(row.open_companies ?? '[]'),
    last_seen_at: row.last_seen_at,
  };
}

export function isPaired(company: CompanyPairing): boolean {
  return company.connector_id !== null && company.books_company_guid !== null;
}

export function companyOpenIn(company: CompanyPairing, connector: WaitingConnectorFacts | undefined): boolean {
  return connector !== undefined && company.books_company_guid !== null && booksCompanyOpen(connector.open_companies, company.books_company_guid);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Why the company's queue waits; null when nothing is queued or processing, or nothing holds it back. */
export function companyWaitingReason(
  company: CompanyPairing,
  connector: WaitingConnectorFacts | undefined,
  queue: { queued: number; processing: number },
): WaitingReasonOut | null {
  if (queue.queued === 0 && queue.processing === 0) return null;
  // What blocks the first queued write blocks them all.
  const blocked = deriveWaitingReason({
    status: 'queued',
    paired: isPaired(company),
    books_company_guid: company.books_company_guid,
    books_company_name: company.books_company_name,
    connector,
    jobs_ahead: 0,
  });
  if (blocked) return blocked;
  if (queue.processing > 0) {
    const behind = queue.queued > 0 ? `; ${plural(queue.queued, 'more write')} wait their turn` : '';
    return { code: 'importing', message: `The connector is importing ${plural(queue.processing, 'write')} into the books${behind}` };
  }
  return null;
}
