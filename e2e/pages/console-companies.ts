// Page object: companies — the list with health at a glance, one company's health, pairing and
// pulled-data counts; and the connectors list.
import type { Locator } from 'playwright-core';
import type { ConsoleShell } from './console-shell.js';

export class ConsoleCompanies {
  constructor(private readonly shell: ConsoleShell) {}

  private get page() {
    return this.shell.page;
  }

  async open(): Promise<void> {
    await this.shell.goToSection('Companies');
  }

  row(companyName: string): Locator {
    return this.page.getByRole('table', { name: 'Companies' }).getByRole('row').filter({ hasText: companyName });
  }

  async openCompany(companyName: string): Promise<void> {
    await this.row(companyName).getByRole('link', { name: companyName }).click();
    await this.shell.heading(companyName).waitFor();
  }

  healthPanel(): Locator {
    return this.shell.panel('Health');
  }

  /** Pairs the open company with a connector (by machine) and one of its open books companies. */
  async pair(machineName: string, booksCompanyName: string): Promise<void> {
    const form = this.page.getByRole('form', { name: 'Pair with the books' });
    const connector = form.getByLabel('Connector');
    const value = await connector.locator('option', { hasText: `${machineName} (` }).getAttribute('value');
    if (value === null) throw new Error(`no connector ${machineName} to pair with`);
    await connector.selectOption(value);
    await form.getByLabel('Books company').selectOption({ label: booksCompanyName });
    await form.getByRole('button', { name: /Pair/ }).click();
    await this.page.getByText('Paired. Writes for this company now go to that books company.').waitFor();
  }

  pulledCounts(): Locator {
    return this.page.getByLabel('Pulled data counts');
  }

  async openTransactions(): Promise<void> {
    await this.page.getByRole('link', { name: 'Transactions', exact: true }).last().click();
    await this.shell.heading('Transactions').waitFor();
  }

  async openConnectors(): Promise<void> {
    await this.shell.goToSection('Connectors');
  }

  connectorRow(machineName: string): Locator {
    return this.page.getByRole('table', { name: 'Connectors' }).getByRole('row').filter({ hasText: machineName });
  }
}
