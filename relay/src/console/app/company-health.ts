// Health at a glance for a company, from its pairing and its connector's last report: the same three
// questions the bridge's health endpoint answers (connector online, books running, company open).
import type { ConnectorRecordOut, CompanyOut } from '@ledgerwire/shared';

export type CompanyHealth = Readonly<{ tone: 'good' | 'bad' | 'warn'; label: string; explanation: string }>;

export function companyHealth(company: Pick<CompanyOut, 'paired' | 'connector_id' | 'books_company_guid'>, connectors: readonly ConnectorRecordOut[]): CompanyHealth {
  if (!company.paired || company.connector_id === null) {
    return { tone: 'warn', label: 'Not paired', explanation: 'No connector is paired with this company yet: writes wait in the queue until it is paired.' };
  }
  const connector = connectors.find((c) => c.id === company.connector_id);
  if (!connector) return { tone: 'bad', label: 'Connector missing', explanation: 'The paired connector is no longer known to the relay. Pair the company again.' };
  if (!connector.online) {
    return { tone: 'bad', label: 'Connector offline', explanation: `The connector on ${connector.machine_name} is offline: the machine may be off, or the connector closed.` };
  }
  if (!connector.books_running) {
    return { tone: 'bad', label: 'Books not running', explanation: `The connector on ${connector.machine_name} is online but the books are not running there.` };
  }
  if (!connector.open_companies.some((c) => c.guid === company.books_company_guid)) {
    return { tone: 'warn', label: 'Company not open', explanation: 'The books are running, but this company is not open in them. Ask the user to open it.' };
  }
  return { tone: 'good', label: 'Healthy', explanation: 'Connector online, books running, company open: writes are being delivered.' };
}
