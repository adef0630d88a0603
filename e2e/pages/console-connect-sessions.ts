// Page object: a customer's connect links in the console, reached from the application's customers —
// each link's status, company, expiry and creation as the table shows them, and cancelling an open
// one through the console's confirmation dialog, as support would on the phone with a shop owner.
import type { Locator } from 'playwright-core';
import { ConsoleDialog } from './console-dialog.js';
import type { ConsoleShell } from './console-shell.js';

export type ConnectLinkRow = Readonly<{ status: string; company: string; expires: string; created: string; sessionId: string }>;

export class ConsoleConnectSessions {
  constructor(private readonly shell: ConsoleShell) {}

  private get page() {
    return this.shell.page;
  }

  /** From an open application page: follows the customer's "Connect links". */
  async openFromApplication(customerName: string): Promise<void> {
    await this.page.getByRole('link', { name: `Connect links of ${customerName}` }).click();
    await this.shell.heading('Connect links').waitFor();
    await this.table().waitFor();
  }

  table(): Locator {
    return this.page.getByRole('table', { name: 'Connect sessions' });
  }

  row(sessionId: string): Locator {
    return this.table().getByRole('row').filter({ hasText: sessionId });
  }

  /** The table's rows as text, top to bottom (newest first). */
  async rows(): Promise<ConnectLinkRow[]> {
    const rows = await this.table().locator('tbody tr').all();
    return Promise.all(
      rows.map(async (row) => {
        const cells = (await row.getByRole('cell').allInnerTexts()).map((text) => text.trim());
        return { status: cells[0] ?? '', company: cells[1] ?? '', expires: cells[2] ?? '', created: cells[3] ?? '', sessionId: cells[4] ?? '' };
      }),
    );
  }

  /** The status the row shows once it reads `status` (waits for the page to reload after an action). */
  async waitForStatus(sessionId: string, status: string): Promise<void> {
    await this.row(sessionId).getByText(status, { exact: true }).waitFor();
  }

  /** Cancels the link after confirming in the console's dialog; returns the dialog's text. */
  async cancel(sessionId: string, companyName: string): Promise<string> {
    await this.row(sessionId).getByRole('button', { name: `Cancel the connect link for ${companyName}` }).click();
    const asked = await new ConsoleDialog(this.page).answer(`Cancel the connect link for ${companyName}?`, 'Yes, cancel the link');
    await this.waitForStatus(sessionId, 'cancelled');
    return asked;
  }

  /** Whether the row offers a cancel button (only links that still work do). */
  async offersCancel(sessionId: string): Promise<boolean> {
    return (await this.row(sessionId).getByRole('button').count()) > 0;
  }
}
