// Page object: the signed-in console's frame — section navigation and the current page's heading.
import type { Locator, Page } from 'playwright-core';

export class ConsoleShell {
  constructor(
    readonly page: Page,
    readonly consoleUrl: string,
  ) {}

  /** Signs in through the printed #token= link and waits for the console. */
  async signInWithLink(token: string): Promise<void> {
    await this.page.goto(`${this.consoleUrl}#token=${encodeURIComponent(token)}`);
    await this.page.getByRole('navigation', { name: 'Console sections' }).waitFor();
  }

  async goToSection(name: 'Tenants' | 'Applications' | 'Companies' | 'Connectors' | 'Transactions'): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name, exact: true }).click();
    await this.heading(name).waitFor();
  }

  /** Goes straight to a console address, e.g. '#/tenants/ten_1/messages'. */
  async visit(hash: string): Promise<void> {
    // An expression string: the e2e code is typed for Node, without the DOM library.
    await this.page.evaluate(`window.location.hash = ${JSON.stringify(hash)}`);
  }

  heading(name: string | RegExp): Locator {
    return this.page.getByRole('heading', { level: 1, name });
  }

  panel(title: string): Locator {
    return this.page.getByRole('region', { name: title, exact: true });
  }
}
