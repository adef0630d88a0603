// Page object of the hosted connect page (/connect/{token}) as a shop owner sees it: the steps, the
// code to type, the waiting words, the choice of TallyPrime company, and the ended-link messages.
import type { Locator, Page } from 'playwright-core';

export class ConnectPage {
  constructor(private readonly page: Page) {}

  async open(url: string): Promise<void> {
    await this.page.goto(url);
    // The first state is in once the page stops saying it is busy loading.
    await this.page.locator('#connect-page:not([aria-busy="true"])').waitFor();
  }

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }

  get setupCode(): Locator {
    return this.page.locator('#setup-code');
  }

  get downloadLink(): Locator {
    return this.page.locator('#download-installer');
  }

  get installerMissing(): Locator {
    return this.page.locator('#installer-missing');
  }

  /** The notice of what the page waits for, in the step that is current. */
  get whatToDo(): Locator {
    return this.page.getByRole('status', { name: 'What to do' });
  }

  get warning(): Locator {
    return this.page.locator('.notice-warning');
  }

  step(number: number): Locator {
    return this.page.locator(`li[data-step="${number}"]`);
  }

  booksCompany(name: string): Locator {
    return this.page.getByRole('radio', { name });
  }

  async choose(booksCompanyName: string, companyName: string): Promise<void> {
    await this.booksCompany(booksCompanyName).check();
    await this.page.getByRole('button', { name: `This is ${companyName}` }).click();
  }

  get connected(): Locator {
    return this.page.getByRole('status', { name: 'Connected' });
  }

  get returnLink(): Locator {
    return this.page.locator('#return-link');
  }

  /** Whether the page is wider than the window (a phone would scroll sideways). */
  async overflowsSideways(): Promise<boolean> {
    // A string, evaluated in the page: this project compiles without the DOM's types.
    return (await this.page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')) > 1;
  }
}
