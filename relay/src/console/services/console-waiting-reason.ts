// Why writes wait, for the console: one transaction's reason is the bridge's own (deriveWaitingReason
// in bridge/services/jobs/waiting-reason.ts, the words the API gives), and a company's is the same question
// asked of its queue as a whole — what blocks every write of it, else how many the books are importing.
import { booksCompanyOpen, onTheWayGuidance, type WaitingReasonOut } from '@ledgerwire/shared';
import { PAIRING_AND_PRESENCE_COLUMNS } from '../store/pairing-and-presence-columns.js';
import { deriveWaitingReason, type ConnectorPresenceColumns, type WaitingConnectorFacts } from '../../bridge/services/jobs/waiting-reason.js';

export { PAIRING_AND_PRESENCE_COLUMNS };

/** A connector row's presence columns, as the console's queries select them. */
export type ConnectorColumns = ConnectorPresenceColumns;

export type CompanyPairing = Readonly<{
  connector_id: string | null;
  books_company_guid: string | null;
  books_company_name: string | null;
}>;

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
    return { code: 'importing', message: `The connector is importing ${plural(queue.processing, 'write')} into the books${behind}`, ...onTheWayGuidance(0) };
  }
  return null;
}
