// Page object: a tenant's templates — adding one, and the editor with its live preview.
import type { Locator } from 'playwright-core';
import type { ConsoleShell } from './console-shell.js';

export class ConsoleTemplates {
  constructor(private readonly shell: ConsoleShell) {}

  private get page() {
    return this.shell.page;
  }

  /** Adds a template from the tenant page and lands in its editor. */
  async add(eventKey: string, subject: string): Promise<void> {
    const form = this.page.getByRole('form', { name: 'New template' });
    await form.getByLabel('Event key').fill(eventKey);
    await form.getByLabel('Subject').fill(subject);
    await form.getByRole('button', { name: 'Add template' }).click();
    await this.shell.heading(`Template ${eventKey}`).waitFor();
  }

  async open(eventKey: string): Promise<void> {
    await this.page.getByRole('table', { name: 'Templates' }).getByRole('link', { name: eventKey }).click();
    await this.shell.heading(`Template ${eventKey}`).waitFor();
  }

  async setSubject(subject: string): Promise<void> {
    await this.shell.panel('Edit').getByLabel('Subject').fill(subject);
  }

  async setHtml(html: string): Promise<void> {
    await this.page.getByLabel('HTML body').fill(html);
  }

  async setSampleData(json: string): Promise<void> {
    await this.page.getByLabel('Sample data (JSON)').fill(json);
  }

  async save(): Promise<void> {
    await this.page.getByRole('button', { name: 'Save template' }).click();
    await this.shell.panel('Edit').getByText('Saved', { exact: true }).waitFor();
  }

  previewSubject(): Locator {
    return this.page.getByTestId('preview-subject');
  }

  /** The body of the rendered HTML, inside the sandboxed preview frame. */
  previewBody(): Locator {
    return this.page.frameLocator('iframe[title="HTML preview"]').locator('body');
  }

  /** The sample data's text (it is {} until the relay has fitted it to the template's variables). */
  sampleData(): Promise<string> {
    return this.page.getByLabel('Sample data (JSON)').inputValue();
  }

  async fitSampleData(): Promise<void> {
    await this.page.getByRole('button', { name: 'Fit sample data to the template' }).click();
  }

  /** The warning naming the variables the sample data lacks. */
  missingVariables(): Locator {
    return this.page.getByRole('status', { name: 'Missing variables' });
  }

  previewError(): Locator {
    return this.shell.panel('Live preview').getByRole('alert');
  }
}
