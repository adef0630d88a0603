// Page object: transactions — filtering by company and status, and one transaction's detail.
import type { Locator } from 'playwright-core';
import type { ConsoleShell } from './console-shell.js';

export class ConsoleTransactions {
  constructor(private readonly shell: ConsoleShell) {}

  private get page() {
    return this.shell.page;
  }

  async filter(filter: { companyId?: number; status?: string }): Promise<void> {
    const form = this.page.getByRole('search');
    await form.getByLabel('Company id').fill(filter.companyId === undefined ? '' : String(filter.companyId));
    await form.getByLabel('Status').selectOption(filter.status ?? '');
    await form.getByRole('button', { name: 'Filter' }).click();
  }

  table(): Locator {
    return this.page.getByRole('table', { name: 'Transactions' });
  }

  async openTransaction(transactionId: string): Promise<void> {
    await this.table().getByRole('link', { name: transactionId }).click();
    await this.shell.heading(`Transaction ${transactionId}`).waitFor();
  }

  async backToList(): Promise<void> {
    await this.page.getByRole('link', { name: 'All transactions' }).click();
    await this.shell.heading('Transactions').waitFor();
  }

  failureNotice(): Locator {
    return this.page.getByRole('alert', { name: 'Why it failed' });
  }

  xml(): Locator {
    return this.shell.panel('XML sent to the books').locator('pre');
  }
}
