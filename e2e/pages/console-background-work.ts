// Page object: Operations → Background work, the relay's background loops and their health.
import type { Locator, Page } from 'playwright-core';

export class ConsoleBackgroundWork {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: 'Background work', exact: true }).click();
    await this.page.getByRole('heading', { level: 1, name: 'Background work' }).waitFor();
  }

  /** The table row of one loop, by its name. */
  loopRow(name: string): Locator {
    return this.page.getByRole('table', { name: 'Background loops' }).getByRole('row').filter({ hasText: name });
  }
}
