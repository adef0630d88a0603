// Health at a glance for a company, from the relay's overview of it: the same three questions the
// bridge's health endpoint answers (connector online, books running, company open), in words.
import type { ConsoleCompanyOverviewOut } from '@ledgerwire/shared';

export type CompanyHealth = Readonly<{ tone: 'good' | 'bad' | 'warn'; label: string; explanation: string }>;

export function companyHealth(company: ConsoleCompanyOverviewOut): CompanyHealth {
  if (!company.paired) {
    return { tone: 'warn', label: 'Not paired', explanation: 'No connector is paired with this company yet: writes wait in the queue until it is paired.' };
  }
  const machine = company.connector_machine;
  if (machine === null) return { tone: 'bad', label: 'Connector missing', explanation: 'The paired connector is no longer known to the relay. Pair the company again.' };
  if (!company.connector_online) {
    return { tone: 'bad', label: 'Connector offline', explanation: `The connector on ${machine} is offline: the machine may be off, or the connector closed.` };
  }
  if (!company.books_running) {
    return { tone: 'bad', label: 'Books not running', explanation: `The connector on ${machine} is online but the books are not running there.` };
  }
  if (!company.company_open) {
    return { tone: 'warn', label: 'Company not open', explanation: 'The books are running, but this company is not open in them. Ask the user to open it.' };
  }
  return { tone: 'good', label: 'Healthy', explanation: 'Connector online, books running, company open: writes are being delivered.' };
}
