// Page object: companies — the list support lands on (found by name, with queue counts and why writes
// wait), one company's health and queue, pairing (with the console's confirmation when the books
// company changes) and pulled-data counts; and the connectors list.
import type { Locator } from 'playwright-core';
import { ConsoleDialog } from './console-dialog.js';
import type { ConsoleShell } from './console-shell.js';

export class ConsoleCompanies {
  constructor(private readonly shell: ConsoleShell) {}

  private get page() {
    return this.shell.page;
  }

  async open(): Promise<void> {
    await this.shell.goToSection('Companies');
  }

  /** Searches the companies by (part of) a company's, customer's or books company's name. */
  async search(name: string): Promise<void> {
    const form = this.page.getByRole('search', { name: 'Find a company' });
    await form.getByLabel('Name').fill(name);
    await form.getByRole('button', { name: 'Search' }).click();
    await this.page.getByRole('heading', { level: 2, name: `Companies matching “${name}”` }).waitFor();
  }

  table(): Locator {
    return this.page.getByRole('table', { name: 'Companies' });
  }

  row(companyName: string): Locator {
    return this.table().getByRole('row').filter({ hasText: companyName });
  }

  async openCompany(companyName: string): Promise<void> {
    await this.row(companyName).getByRole('link', { name: companyName, exact: true }).click();
    await this.shell.heading(companyName).waitFor();
  }

  healthPanel(): Locator {
    return this.shell.panel('Health');
  }

  /** On a company page: the notice saying why its writes wait. */
  whyTheyWait(): Locator {
    return this.page.getByRole('status', { name: 'Why the writes wait' });
  }

  /** Pairs the open company with a connector (by machine) and one of its open books companies. */
  async pair(machineName: string, booksCompanyName: string): Promise<void> {
    await this.choosePairing(machineName, booksCompanyName);
    await this.page.getByText(`Paired with ${booksCompanyName}. Writes for this company now go to that books company.`).waitFor();
  }

  /**
   * Pairs the open (already paired) company with another books company: the console asks first,
   * naming both; `accept` answers the dialog. Returns the dialog's text.
   */
  async pairElsewhere(machineName: string, booksCompanyName: string, accept: boolean): Promise<string> {
    await this.choosePairing(machineName, booksCompanyName);
    const dialog = new ConsoleDialog(this.page);
    const title = `Pair ${await this.shell.heading(/.+/).innerText()} with ${booksCompanyName}?`;
    if (!accept) return dialog.dismissWithEscape(title);
    const text = await dialog.answer(title, `Pair with ${booksCompanyName}`);
    await this.page.getByText(`Paired with ${booksCompanyName}.`).waitFor();
    return text;
  }

  private async choosePairing(machineName: string, booksCompanyName: string): Promise<void> {
    const form = this.page.getByRole('form', { name: 'Pair with the books' });
    const connector = form.getByLabel('Connector');
    const value = await connector.locator('option', { hasText: `${machineName} (` }).getAttribute('value');
    if (value === null) throw new Error(`no connector ${machineName} to pair with`);
    await connector.selectOption(value);
    await form.getByLabel('Books company').selectOption({ label: booksCompanyName });
    await form.getByRole('button', { name: /Pair/ }).click();
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
