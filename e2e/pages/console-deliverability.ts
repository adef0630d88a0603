// Page object: a tenant's deliverability panels — suppressed addresses (and clearing one) and the
// sends the relay refused — and the message search by tag and metadata.
import type { Locator } from 'playwright-core';
import { ConsoleDialog } from './console-dialog.js';
import type { ConsoleShell } from './console-shell.js';

export class ConsoleDeliverability {
  constructor(private readonly shell: ConsoleShell) {}

  private get page() {
    return this.shell.page;
  }

  async openTenant(tenantId: string, name: string): Promise<void> {
    await this.shell.visit(`#/tenants/${encodeURIComponent(tenantId)}`);
    await this.shell.heading(name).waitFor();
  }

  suppressionRow(email: string): Locator {
    return this.page.getByRole('table', { name: 'Suppressed addresses' }).getByRole('row').filter({ hasText: email });
  }

  suppressionsEmpty(): Locator {
    return this.shell.panel('Suppressed addresses').getByText('No address is suppressed');
  }

  async clearSuppression(email: string): Promise<string> {
    await this.page.getByRole('button', { name: `Remove ${email} from the suppression list` }).click();
    return new ConsoleDialog(this.page).answer(`Send to ${email} again?`, 'Remove from the list');
  }

  refusedRow(transactionId: string): Locator {
    return this.page.getByRole('table', { name: 'Refused sends' }).getByRole('row').filter({ hasText: transactionId });
  }

  async searchMessages(tenantId: string, filter: { tag?: string; metadata?: string }): Promise<Locator> {
    await this.shell.visit(`#/tenants/${encodeURIComponent(tenantId)}/messages`);
    await this.shell.heading('Messages').waitFor();
    const form = this.page.getByRole('search');
    await form.getByLabel('Tag').fill(filter.tag ?? '');
    await form.getByLabel('Metadata').fill(filter.metadata ?? '');
    await form.getByRole('button', { name: 'Search' }).click();
    return this.page.getByRole('table', { name: 'Messages' });
  }
}
