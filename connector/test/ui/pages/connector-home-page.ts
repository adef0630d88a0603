// Page object for the connector's local page: what a person sees and does there, by role, label and
// id, so the tests read as the user's steps and survive layout changes.
import type { Locator, Page } from 'playwright-core';

export class ConnectorHomePage {
  readonly problems: string[] = [];

  constructor(readonly page: Page) {
    page.on('console', (message) => {
      if (message.type() === 'error') this.problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => this.problems.push(`page error: ${error.message}`));
    page.on('response', (response) => {
      if (response.status() >= 400) this.problems.push(`HTTP ${response.status()} ${response.url()}`);
    });
  }

  async open(url: string): Promise<void> {
    await this.page.goto(url);
    await this.page.locator('#relay-state').filter({ hasText: /\S/ }).waitFor();
  }

  relayState(): Locator {
    return this.page.locator('#relay-state');
  }

  booksState(): Locator {
    return this.page.locator('#books-state');
  }

  queueState(): Locator {
    return this.page.locator('#queue-state');
  }

  enrolForm(): Locator {
    return this.page.getByRole('form', { name: 'Connect this computer' });
  }

  /** Types the code; the relay's address only when the page asks for it (it may have come with the installer). */
  async enrol(relayUrl: string, code: string, machineName: string): Promise<void> {
    await this.page.getByLabel('Code from your software provider').fill(code);
    const relayField = this.page.getByLabel('Relay address');
    if ((await relayField.count()) > 0) await relayField.fill(relayUrl);
    await this.page.getByText('More: this computer').click();
    await this.page.getByLabel('Name of this computer').fill(machineName);
    await this.page.getByRole('button', { name: 'Connect' }).click();
  }

  /** The steps the page gives for TallyPrime (what it needs: data-attention), when it gives any. */
  booksHelp(): Locator {
    return this.page.locator('#books-help');
  }

  enrolResult(): Locator {
    return this.page.locator('#enrol-result');
  }

  pairForm(): Locator {
    return this.page.getByRole('form', { name: 'Pair a company' });
  }

  async pair(booksCompanyName: string, companyId: number): Promise<void> {
    await this.page.getByLabel('Company in TallyPrime').selectOption({ label: booksCompanyName });
    await this.page.getByLabel('Your company').selectOption(String(companyId));
    await this.pairButton().click();
  }

  pairButton(): Locator {
    return this.page.getByRole('button', { name: 'Pair', exact: true });
  }

  pairResult(): Locator {
    return this.page.locator('#pair-result');
  }

  /** The paired companies' rows. */
  companies(): Locator {
    return this.page.getByRole('table', { name: 'Paired companies' }).locator('tbody tr');
  }

  company(companyId: number): Locator {
    return this.page.locator(`tr[data-company-id="${companyId}"]`);
  }

  /** A cell of a company's row, by its column title ("State", "Last synced", "Last result"). */
  companyCell(companyId: number, column: string): Locator {
    return this.company(companyId).locator(`td[data-title="${column}"]`);
  }

  async unpair(companyName: string): Promise<void> {
    await this.page.getByRole('button', { name: `Unpair ${companyName}`, exact: true }).first().click();
  }

  unpairDialog(): Locator {
    return this.page.getByRole('alertdialog', { name: 'Unpair a company' });
  }

  async syncNow(): Promise<void> {
    await this.syncButton().click();
  }

  syncButton(): Locator {
    return this.page.locator('#sync-now');
  }

  syncState(): Locator {
    return this.page.locator('#sync-state');
  }

  syncResult(): Locator {
    return this.page.locator('#sync-result');
  }

  syncProgress(): Locator {
    return this.page.getByRole('progressbar', { name: 'Sync progress' });
  }

  job(jobId: string): Locator {
    return this.page.locator(`tr[data-job-id="${jobId}"]`);
  }

  /** A cell of a job's row, by its column title ("Voucher or master", "Date", "Party", "Amount", "State", "Details", "Received"). */
  jobCell(jobId: string, column: string): Locator {
    return this.job(jobId).locator(`td[data-title="${column}"]`);
  }

  log(): Locator {
    return this.page.locator('#log-lines');
  }

  pageError(): Locator {
    return this.page.locator('#page-error');
  }
}
