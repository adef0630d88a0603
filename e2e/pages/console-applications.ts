// Page object: bridge applications — creating one, and its API keys with capabilities.
import type { Locator } from 'playwright-core';
import type { ConsoleShell } from './console-shell.js';

export class ConsoleApplications {
  constructor(private readonly shell: ConsoleShell) {}

  private get page() {
    return this.shell.page;
  }

  async open(): Promise<void> {
    await this.shell.goToSection('Applications');
  }

  /** Creates an application and lands on its page; returns its id. */
  async create(name: string): Promise<string> {
    const form = this.shell.panel('New application');
    await form.getByLabel('Application name').fill(name);
    await form.getByRole('button', { name: 'Create application' }).click();
    await this.shell.heading(name).waitFor();
    const id = /Application (\S+)/.exec(await this.page.locator('.intro').first().innerText())?.[1];
    if (!id) throw new Error('no application id on the application page');
    return id;
  }

  /** Creates a key with these capabilities; returns the credential from the one-time notice. */
  async createKey(environment: 'test' | 'live', capabilities: readonly string[]): Promise<string> {
    const form = this.page.getByRole('form', { name: 'New API key' });
    await form.getByLabel('Environment').selectOption(environment);
    for (const capability of capabilities) await form.getByLabel(`(${capability})`, { exact: false }).check();
    await form.getByRole('button', { name: 'Create API key' }).click();
    const credential = (await this.page.getByLabel('New credential value').innerText()).trim();
    await this.page.getByRole('button', { name: 'I have stored it' }).click();
    return credential;
  }

  keyRow(keyId: string): Locator {
    return this.page.getByRole('table', { name: 'Application API keys' }).getByRole('row').filter({ hasText: keyId });
  }

  customersTable(): Locator {
    return this.page.getByRole('table', { name: 'Customers' });
  }

  async openWebhooks(): Promise<void> {
    await this.page.getByRole('link', { name: 'Webhooks', exact: true }).click();
    await this.shell.heading('Webhooks').waitFor();
  }
}
