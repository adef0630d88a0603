// Health at a glance for a company, from the relay's overview of it: the same three questions the
// bridge's health endpoint answers (connector online, books running, company open), in words.
// Each problem also carries the sentence the bridge's health endpoint gives the end user (user_message,
// fix_by), from the same shared wording.
import { connectionGuidance, type ConnectionProblem, type ConsoleCompanyOverviewOut, type FixBy } from '@ledgerwire/shared';

export type CompanyHealth = Readonly<{
  tone: 'good' | 'bad' | 'warn';
  label: string;
  explanation: string;
  /** What the end user is told while there is a problem; null when healthy. */
  userMessage: string | null;
  fixBy: FixBy | null;
}>;

export function companyHealth(company: ConsoleCompanyOverviewOut): CompanyHealth {
  const health = operatorHealth(company);
  const problem = connectionProblem(company);
  if (problem === null) return { ...health, userMessage: null, fixBy: null };
  const guidance = connectionGuidance(problem, { machine: company.connector_machine, books_company_name: company.books_company_name });
  return { ...health, userMessage: guidance.user_message, fixBy: guidance.fix_by };
}

/** The bridge's attention code for the company's state (its health endpoint), or null when healthy. */
function connectionProblem(company: ConsoleCompanyOverviewOut): ConnectionProblem | null {
  if (!company.paired) return 'company_disconnected';
  if (company.connector_machine === null || !company.connector_online) return 'connector_offline';
  if (!company.books_running) return 'books_not_running';
  if (!company.company_open) return 'company_not_open';
  return null;
}

function operatorHealth(company: ConsoleCompanyOverviewOut): Omit<CompanyHealth, 'userMessage' | 'fixBy'> {
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
