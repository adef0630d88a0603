// Page object: the console's own confirmation dialog (a modal named by its question), which replaced
// the browser's confirm(). Answers it as a person would, by its buttons or with Escape.
import type { Locator, Page } from 'playwright-core';

export class ConsoleDialog {
  constructor(private readonly page: Page) {}

  /** The open dialog with this title. */
  named(title: string | RegExp): Locator {
    return this.page.getByRole('dialog', { name: title });
  }

  /** Waits for the dialog, returns its whole text, and presses the button named `button`. */
  async answer(title: string | RegExp, button: string): Promise<string> {
    const dialog = this.named(title);
    await dialog.waitFor();
    const text = await dialog.innerText();
    await dialog.getByRole('button', { name: button, exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    return text;
  }

  /** Waits for the dialog, returns its text, and closes it with Escape (which answers no). */
  async dismissWithEscape(title: string | RegExp): Promise<string> {
    const dialog = this.named(title);
    await dialog.waitFor();
    const text = await dialog.innerText();
    await this.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    return text;
  }
}
