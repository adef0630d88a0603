// Page object: the console's sign-in screen.
import type { Page } from 'playwright-core';

export class ConsoleSignIn {
  constructor(
    private readonly page: Page,
    private readonly consoleUrl: string,
  ) {}

  async open(): Promise<void> {
    await this.page.goto(this.consoleUrl);
    await this.page.getByRole('heading', { name: 'Ledgerwire console' }).waitFor();
  }

  /** Opens the link the relay prints at first start (token in the fragment). */
  async openWithTokenLink(token: string): Promise<void> {
    await this.page.goto(`${this.consoleUrl}#token=${encodeURIComponent(token)}`);
  }

  async signIn(token: string): Promise<void> {
    await this.page.getByLabel('Operator token').fill(token);
    await this.page.getByRole('button', { name: 'Sign in' }).click();
  }

  errorText(): Promise<string> {
    return this.page.getByRole('alert').innerText();
  }

  /** Resolves once the signed-in shell (the section navigation) is on screen. */
  async waitUntilSignedIn(): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Console sections' }).waitFor();
  }
}
