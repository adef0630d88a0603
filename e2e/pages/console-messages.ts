// Page object: a tenant's messages — search by status or recipient, and one message's timeline.
import type { Locator } from 'playwright-core';
import type { ConsoleShell } from './console-shell.js';

export class ConsoleMessages {
  constructor(private readonly shell: ConsoleShell) {}

  private get page() {
    return this.shell.page;
  }

  async openFromTenantPage(): Promise<void> {
    await this.page.getByRole('link', { name: 'Messages', exact: true }).click();
    await this.shell.heading('Messages').waitFor();
  }

  async search(filter: { status?: string; recipient?: string }): Promise<void> {
    const form = this.page.getByRole('search');
    await form.getByLabel('Status').selectOption(filter.status ?? '');
    await form.getByLabel('Recipient').fill(filter.recipient ?? '');
    await form.getByRole('button', { name: 'Search' }).click();
  }

  results(): Locator {
    return this.page.getByRole('table', { name: 'Messages' });
  }

  emptyResults(): Locator {
    return this.shell.panel('Results').locator('.empty');
  }

  async openMessage(recipient: string): Promise<void> {
    await this.results().getByRole('link', { name: recipient }).first().click();
    await this.page.getByRole('list', { name: 'Message timeline' }).waitFor();
  }

  timeline(): Locator {
    return this.page.getByRole('list', { name: 'Message timeline' });
  }

  summary(): Locator {
    return this.shell.panel('Summary');
  }
}
