// Page object for the connector's local page: what a person sees and does there, by role and id, so the
// tests read as the user's steps and survive layout changes.
import type { Locator, Page } from 'playwright-core';

export class ConnectorHomePage {
  readonly problems: string[] = [];

  constructor(readonly page: Page) {
    page.on('console', (message) => {
      if (message.type() === 'error') this.problems.push(`console: ${message.text()}`);
    });
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

  enrolSection(): Locator {
    return this.page.locator('#enrol');
  }

  async enrol(relayUrl: string, token: string, machineName: string): Promise<void> {
    await this.page.getByLabel('Relay address').fill(relayUrl);
    await this.page.getByLabel('Customer token').fill(token);
    await this.page.getByLabel('Name of this computer').fill(machineName);
    await this.page.getByRole('button', { name: 'Connect' }).click();
  }

  enrolResult(): Locator {
    return this.page.locator('#enrol-result');
  }

  async pair(booksCompanyName: string, companyId: number): Promise<void> {
    await this.page.getByLabel('Company in TallyPrime').selectOption({ label: booksCompanyName });
    await this.page.getByLabel('Your company').selectOption(String(companyId));
    await this.page.getByRole('button', { name: 'Pair' }).click();
  }

  pairResult(): Locator {
    return this.page.locator('#pair-result');
  }

  pairings(): Locator {
    return this.page.locator('#pairings li');
  }

  async syncNow(): Promise<void> {
    await this.page.getByRole('button', { name: 'Sync now' }).click();
  }

  syncButton(): Locator {
    return this.page.getByRole('button', { name: 'Sync now' });
  }

  syncState(): Locator {
    return this.page.locator('#sync-state');
  }

  syncResult(): Locator {
    return this.page.locator('#sync-result');
  }

  syncProgress(): Locator {
    return this.page.locator('#sync-progress');
  }

  job(jobId: string): Locator {
    return this.page.locator(`#job-rows tr[data-job-id="${jobId}"]`);
  }

  /** The "What" of a recent job: which voucher or master, then what was asked of the books. */
  jobWhat(jobId: string): Locator {
    return this.job(jobId).locator('td').nth(1);
  }

  log(): Locator {
    return this.page.locator('#log-lines');
  }
}
