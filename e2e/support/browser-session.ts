// One Chromium per test file, one page per test. While a test runs, the session records console
// errors, uncaught page errors and every HTTP response >= 400; when the test fails it writes them,
// with a full-page screenshot, under e2e/test-results/<test>/ (gitignored) and prints where.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject, onTestFinished, type TestContext } from 'vitest';

export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
export const RESULTS_DIR = fileURLToPath(new URL('../test-results/', import.meta.url));

/** Whether browser suites run here; the global setup already said so loudly (and fails under REQUIRE_BROWSER=1). */
export function browserAvailable(): boolean {
  return inject('browserAvailable');
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

export type BrowserProblems = { consoleErrors: string[]; pageErrors: string[]; failedResponses: string[] };

export type PageSession = Readonly<{ context: BrowserContext; page: Page; problems: BrowserProblems }>;

/**
 * A fresh context and page for one test, closed when the test ends. Responses >= 400 that the test
 * provokes on purpose are recorded too: they are evidence, and the failure report shows them all.
 */
export async function openPage(browser: Browser, test: TestContext, viewport = { width: 1280, height: 800 }): Promise<PageSession> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems: BrowserProblems = { consoleErrors: [], pageErrors: [], failedResponses: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') problems.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => problems.pageErrors.push(`${error.name}: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.failedResponses.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  // One hook both keeps the evidence (when the test failed) and closes the context afterwards.
  onTestFinished(async (finished) => {
    if (finished.task.result?.state === 'fail') await keepEvidence(page, test, problems);
    await context.close();
  });
  return { context, page, problems };
}

async function keepEvidence(page: Page, test: TestContext, problems: BrowserProblems): Promise<void> {
  const dir = path.join(RESULTS_DIR, safeName(test.task.name));
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, 'failure.png'), fullPage: true }).catch(() => undefined);
  fs.writeFileSync(path.join(dir, 'browser-problems.json'), `${JSON.stringify({ url: page.url(), ...problems }, null, 2)}\n`);
  process.stderr.write(`\nBrowser evidence for "${test.task.name}": ${dir}\n${JSON.stringify(problems, null, 2)}\n`);
}

/** Saves a screenshot kept as evidence (layout checks), under e2e/test-results/. */
export async function keepScreenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${safeName(name)}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

function safeName(name: string): string {
  return name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').slice(0, 100).toLowerCase();
}
