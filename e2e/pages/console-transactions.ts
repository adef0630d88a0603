// Page object: transactions — searching by voucher number, party, amount, date, company and status,
// and one transaction's detail (why it failed or waits, the books company, the XML).
import type { Locator } from 'playwright-core';
import type { ConsoleShell } from './console-shell.js';

export type TransactionSearch = Readonly<{
  companyId?: number;
  status?: string;
  voucherNumber?: string;
  party?: string;
  amount?: string;
  dateFrom?: string;
  dateTo?: string;
}>;

export class ConsoleTransactions {
  constructor(private readonly shell: ConsoleShell) {}

  private get page() {
    return this.shell.page;
  }

  /** Fills every search field (empty where not given) and searches. */
  async search(search: TransactionSearch): Promise<void> {
    const form = this.page.getByRole('search', { name: 'Search transactions' });
    await form.getByLabel('Company id').fill(search.companyId === undefined ? '' : String(search.companyId));
    await form.getByLabel('Status').selectOption(search.status ?? '');
    await form.getByLabel('Voucher number').fill(search.voucherNumber ?? '');
    await form.getByLabel('Party').fill(search.party ?? '');
    await form.getByLabel('Amount').fill(search.amount ?? '');
    await form.getByLabel('Date from').fill(search.dateFrom ?? '');
    await form.getByLabel('Date to').fill(search.dateTo ?? '');
    await form.getByRole('button', { name: 'Search' }).click();
  }

  /** The older name of search, by company and status. */
  filter(filter: { companyId?: number; status?: string }): Promise<void> {
    return this.search(filter);
  }

  table(): Locator {
    return this.page.getByRole('table', { name: 'Transactions' });
  }

  row(transactionId: string): Locator {
    return this.table().getByRole('row').filter({ has: this.page.getByRole('link', { name: transactionId, exact: true }) });
  }

  async openTransaction(transactionId: string): Promise<void> {
    await this.table().getByRole('link', { name: transactionId, exact: true }).click();
    await this.shell.heading(`Transaction ${transactionId}`).waitFor();
  }

  async backToList(): Promise<void> {
    await this.page.getByRole('link', { name: 'All transactions' }).click();
    await this.shell.heading('Transactions').waitFor();
  }

  failureNotice(): Locator {
    return this.page.getByRole('alert', { name: 'Why it failed' });
  }

  waitingNotice(): Locator {
    return this.page.getByRole('status', { name: 'Why it waits' });
  }

  /** The XML panel: titled "XML sent to the books" once sent, "XML to be sent" before. */
  xmlPanel(sent: boolean): Locator {
    return this.shell.panel(sent ? 'XML sent to the books' : 'XML to be sent');
  }

  xml(): Locator {
    return this.xmlPanel(true).locator('pre');
  }
}
