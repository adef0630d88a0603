// Page object: webhook endpoints of a tenant or application — their actions (test event, disable,
// enable, delete), delivery history, one delivery's request payload and each attempt's response, and
// redeliver.
import type { Locator } from 'playwright-core';
import { ConsoleDialog } from './console-dialog.js';
import type { ConsoleShell } from './console-shell.js';

export class ConsoleWebhooks {
  constructor(private readonly shell: ConsoleShell) {}

  private get page() {
    return this.shell.page;
  }

  endpoint(endpointUrl: string): Locator {
    return this.page.getByRole('region', { name: `Endpoint ${endpointUrl}`, exact: true });
  }

  deliveries(endpointUrl: string): Locator {
    return this.page.getByRole('table', { name: `Deliveries to ${endpointUrl}` });
  }

  deliveryRows(endpointUrl: string, eventType: string): Locator {
    return this.deliveries(endpointUrl).getByRole('row').filter({ hasText: eventType });
  }

  /** Opens one delivery: its request payload and every attempt with the receiver's answer. */
  async inspect(row: Locator): Promise<Locator> {
    const button = row.getByRole('button', { name: /^Inspect / });
    const label = (await button.getAttribute('aria-label')) ?? '';
    await button.click();
    const detail = this.page.getByRole('region', { name: `Delivery ${label.replace(/^Inspect /, '')}` });
    await detail.getByLabel('Request payload').waitFor();
    return detail;
  }

  payload(detail: Locator): Locator {
    return detail.getByLabel('Request payload');
  }

  attempt(detail: Locator, number: number): Locator {
    return detail.getByRole('listitem', { name: `Attempt ${number}` });
  }

  responseBody(detail: Locator, number: number): Locator {
    return detail.getByLabel(`Response body of attempt ${number}`);
  }

  async redeliver(row: Locator): Promise<void> {
    await row.getByRole('button', { name: /^Redeliver / }).click();
    await this.page.getByText(/^Sent again as delivery dlv_/).waitFor();
  }

  async sendTest(endpointUrl: string): Promise<string> {
    await this.endpoint(endpointUrl).getByRole('button', { name: 'Send test event' }).click();
    const notice = this.endpoint(endpointUrl).getByText(/^Test event queued as delivery dlv_/);
    await notice.waitFor();
    return (/dlv_[a-z0-9]+/.exec(await notice.innerText()) ?? [''])[0];
  }

  async disable(endpointUrl: string): Promise<void> {
    await this.endpoint(endpointUrl).getByRole('button', { name: 'Disable', exact: true }).click();
    await this.endpoint(endpointUrl).getByText('disabled', { exact: true }).waitFor();
  }

  async enable(endpointUrl: string): Promise<void> {
    await this.endpoint(endpointUrl).getByRole('button', { name: 'Enable', exact: true }).click();
    await this.endpoint(endpointUrl).getByText('enabled', { exact: true }).waitFor();
  }

  async delete(endpointUrl: string): Promise<string> {
    await this.endpoint(endpointUrl).getByRole('button', { name: 'Delete', exact: true }).click();
    const text = await new ConsoleDialog(this.page).answer('Delete this webhook endpoint?', 'Delete endpoint');
    await this.endpoint(endpointUrl).waitFor({ state: 'detached' });
    return text;
  }
}
