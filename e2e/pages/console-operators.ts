// Page object: who is signed in and what the role lets them see — the top bar's "signed in as",
// the sections offered, a company page's action panels and its history — the Audit log page
// (entries, filters) and the Operators page (create an account, its token shown once; revoke).
import type { Locator } from 'playwright-core';
import { ConsoleDialog } from './console-dialog.js';
import type { ConsoleShell } from './console-shell.js';

export const COMPANY_ACTION_PANELS = ['Pairing', 'Disconnect', 'Customer', 'Data from the books'] as const;

export class ConsoleOperators {
  constructor(private readonly shell: ConsoleShell) {}

  private get page() {
    return this.shell.page;
  }

  signedInAs(): Promise<string> {
    return this.page.getByLabel('Signed in as').innerText();
  }

  /** The section links the navigation offers. */
  async sections(): Promise<string[]> {
    return this.page.getByRole('navigation', { name: 'Console sections' }).getByRole('link').allInnerTexts();
  }

  async openSection(name: 'Audit log' | 'Operators'): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name, exact: true }).click();
    await this.shell.heading(name).waitFor();
  }

  /** Opens a company page by id and waits for its history panel to load. */
  async openCompany(companyId: number, companyName: string): Promise<void> {
    await this.shell.visit(`#/companies/${companyId}`);
    await this.shell.heading(companyName).waitFor();
    await this.companyHistory().getByRole('table').or(this.companyHistory().getByText('No operator has acted on it yet.')).waitFor();
  }

  /** Which of the company page's action panels are on screen. */
  async visibleCompanyActionPanels(): Promise<string[]> {
    const shown: string[] = [];
    for (const title of COMPANY_ACTION_PANELS) if ((await this.shell.panel(title).count()) > 0) shown.push(title);
    return shown;
  }

  companyHistory(): Locator {
    return this.shell.panel('Who paired or changed it');
  }

  /** The company history as [what, who] pairs, newest first. */
  async companyHistoryRows(): Promise<string[][]> {
    return this.tableRows(this.companyHistory().getByRole('table'), [1, 2]);
  }

  auditTable(): Locator {
    return this.page.getByRole('table', { name: 'Audit log entries' });
  }

  /** The audit page's rows as [who, action, object, outcome], newest first. */
  async auditRows(): Promise<string[][]> {
    await this.auditTable().or(this.page.getByText('No entries match.')).waitFor();
    if ((await this.auditTable().count()) === 0) return [];
    return this.tableRows(this.auditTable(), [1, 2, 3, 4]);
  }

  async filterAudit(filters: Partial<Record<'Operator id' | 'Action' | 'Object type' | 'Object id', string>>): Promise<void> {
    const form = this.page.getByRole('form', { name: 'Filter the audit log' });
    for (const [label, value] of Object.entries(filters)) await form.getByLabel(label).fill(value);
    const before = this.page.url();
    await form.getByRole('button', { name: 'Filter' }).click();
    await this.page.waitForURL((url) => url.toString() !== before);
  }

  /** Creates an operator account; returns the token the page shows once. */
  async createOperator(name: string, role: 'viewer' | 'support' | 'admin'): Promise<string> {
    const panel = this.shell.panel('New operator');
    await panel.getByLabel('Name').fill(name);
    await panel.getByLabel('Role').selectOption(role);
    await panel.getByRole('button', { name: 'Create operator' }).click();
    const secret = this.page.getByLabel(`Token for ${name} value`);
    await secret.waitFor();
    return secret.innerText();
  }

  operatorRow(name: string): Locator {
    return this.page.getByRole('table', { name: 'Operators' }).getByRole('row').filter({ hasText: name });
  }

  async revokeOperator(name: string): Promise<void> {
    await this.operatorRow(name).getByRole('button', { name: 'Revoke' }).click();
    await new ConsoleDialog(this.page).answer(`Revoke ${name}?`, 'Revoke');
    await this.operatorRow(name).getByText('revoked', { exact: true }).waitFor();
  }

  private async tableRows(table: Locator, columns: readonly number[]): Promise<string[][]> {
    const rows = table.locator('tbody tr');
    const out: string[][] = [];
    for (let i = 0; i < (await rows.count()); i += 1) {
      const cells = rows.nth(i).locator('td');
      out.push(await Promise.all(columns.map(async (c) => (await cells.nth(c).innerText()).trim())));
    }
    return out;
  }
}
