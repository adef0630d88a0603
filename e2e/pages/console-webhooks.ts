// Page object: webhook endpoints of a tenant or application, their delivery history and redeliver.
import type { Locator } from 'playwright-core';
import type { ConsoleShell } from './console-shell.js';

export class ConsoleWebhooks {
  constructor(private readonly shell: ConsoleShell) {}

  private get page() {
    return this.shell.page;
  }

  deliveries(endpointUrl: string): Locator {
    return this.page.getByRole('table', { name: `Deliveries to ${endpointUrl}` });
  }

  deliveryRows(endpointUrl: string, eventType: string): Locator {
    return this.deliveries(endpointUrl).getByRole('row').filter({ hasText: eventType });
  }

  async showAttempts(row: Locator): Promise<Locator> {
    await row.getByRole('button', { expanded: false }).click();
    return row.getByRole('list');
  }

  async redeliver(row: Locator): Promise<void> {
    await row.getByRole('button', { name: /^Redeliver / }).click();
    await this.page.getByText(/^Sent again as delivery dlv_/).waitFor();
  }
}
