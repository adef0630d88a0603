// Page object: support's bridge tasks — rotate a customer's token on the application page (the new
// token is read from the one-time notice), and on a company page attach it to a customer, detach
// it, and disconnect it from its connector. The console's confirmation dialogs are accepted, as support would.
import type { Locator } from 'playwright-core';
import { ConsoleDialog } from './console-dialog.js';
import type { ConsoleShell } from './console-shell.js';

export class ConsoleBridgeSupport {
  constructor(private readonly shell: ConsoleShell) {}

  private get page() {
    return this.shell.page;
  }

  /** Opens an application's page straight from its id. */
  async openApplication(applicationId: string, name: string): Promise<void> {
    await this.shell.visit(`#/applications/${applicationId}`);
    await this.shell.heading(name).waitFor();
  }

  /** Opens a company's page straight from its id. */
  async openCompany(companyId: number, name: string): Promise<void> {
    await this.shell.visit(`#/companies/${companyId}`);
    await this.shell.heading(name).waitFor();
  }

  /** Rotates the customer's token after confirming; returns the new token from the one-time notice. */
  async rotateCustomerToken(customerName: string): Promise<{ token: string; explanation: string }> {
    await this.page.getByRole('button', { name: `Rotate token of ${customerName}` }).click();
    await new ConsoleDialog(this.page).answer(`Rotate the enrolment token of ${customerName}?`, 'Rotate token');
    const notice = this.page.getByRole('status', { name: 'New enrolment token' });
    const token = (await notice.getByLabel('New enrolment token value').innerText()).trim();
    const explanation = await notice.innerText();
    await notice.getByRole('button', { name: 'I have stored it' }).click();
    return { token, explanation };
  }

  customerPanel(): Locator {
    return this.shell.panel('Customer');
  }

  async attachToCustomer(customerName: string): Promise<void> {
    const form = this.page.getByRole('form', { name: 'Attach to a customer' });
    await form.getByLabel('Customer').selectOption({ label: customerName });
    await form.getByRole('button', { name: 'Attach to customer' }).click();
    await this.customerPanel().getByText(`Attached to ${customerName}. The application was told (company.linked).`).waitFor();
  }

  async detachFromCustomer(customerName: string): Promise<void> {
    await this.customerPanel().getByRole('button', { name: 'Detach from customer' }).click();
    await this.customerPanel().getByText(`Detached from ${customerName}.`, { exact: false }).waitFor();
  }

  /** Disconnects the open company after confirming in the console's dialog; returns the dialog's text. */
  async disconnect(): Promise<string> {
    await this.shell.panel('Disconnect').getByRole('button', { name: 'Disconnect company' }).click();
    const asked = await new ConsoleDialog(this.page).answer(/^Disconnect /, 'Disconnect');
    await this.shell.panel('Disconnect').getByText('Disconnected. Writes for this company now wait in the queue').waitFor();
    return asked;
  }

  healthPanel(): Locator {
    return this.shell.panel('Health');
  }
}
