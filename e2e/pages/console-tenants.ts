// Page object: messaging tenants — the list, creating one, and one tenant's status and API keys.
import type { Locator } from 'playwright-core';
import { ConsoleDialog } from './console-dialog.js';
import type { ConsoleShell } from './console-shell.js';

export class ConsoleTenants {
  constructor(private readonly shell: ConsoleShell) {}

  private get page() {
    return this.shell.page;
  }

  async open(): Promise<void> {
    await this.shell.goToSection('Tenants');
  }

  /** Creates a tenant and lands on its page; returns the tenant id shown there. */
  async create(name: string, orgId: number): Promise<string> {
    const form = this.shell.panel('New tenant');
    await form.getByLabel('Tenant name').fill(name);
    await form.getByLabel('Organisation id').fill(String(orgId));
    await form.getByRole('button', { name: 'Create tenant' }).click();
    await this.shell.heading(name).waitFor();
    const intro = await this.page.locator('.intro').first().innerText();
    const id = /Tenant (\S+)/.exec(intro)?.[1];
    if (!id) throw new Error(`no tenant id on the tenant page: ${intro}`);
    return id;
  }

  tenantRow(name: string): Locator {
    return this.page.getByRole('table', { name: 'Tenants' }).getByRole('row').filter({ hasText: name });
  }

  /** Issues an API key and returns the whole key from the one-time notice. */
  async issueKey(): Promise<string> {
    await this.shell.panel('API keys').getByRole('button', { name: 'Issue API key' }).click();
    return (await this.page.getByLabel('New API key value').innerText()).trim();
  }

  async dismissNewKey(): Promise<void> {
    await this.page.getByRole('button', { name: 'I have stored it' }).click();
  }

  newKeyNotice(): Locator {
    return this.page.getByRole('status', { name: 'New API key' });
  }

  keyRow(prefix: string): Locator {
    return this.page.getByRole('table', { name: 'API keys' }).getByRole('row').filter({ hasText: prefix });
  }

  /** The listed prefix that names this key (the relay lists keys by their lookup prefix). */
  async prefixOf(apiKey: string): Promise<string> {
    const prefixes = await this.page.getByRole('table', { name: 'API keys' }).locator('code').allInnerTexts();
    const prefix = prefixes.find((p) => apiKey.startsWith(p.trim()));
    if (!prefix) throw new Error(`no listed prefix matches the new key (listed: ${prefixes.join(', ')})`);
    return prefix.trim();
  }

  async revokeKey(prefix: string): Promise<void> {
    await this.page.getByRole('button', { name: `Revoke key ${prefix}` }).click();
    await new ConsoleDialog(this.page).answer(`Revoke key ${prefix}?`, 'Revoke key');
    await this.keyRow(prefix).getByText('revoked', { exact: true }).waitFor();
  }

  async suspend(): Promise<void> {
    await this.page.getByRole('button', { name: 'Suspend tenant' }).click();
    await this.page.getByRole('button', { name: 'Reactivate tenant' }).waitFor();
  }
}
