// The console's sign-in: a wrong token gets a plain-words error; the right one, typed or from the
// link the relay prints, opens the console, and the token leaves the address bar.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, keepScreenshot, launchChromium, openPage } from '../support/browser-session.js';
import { TEST_OPERATOR_TOKEN } from '@ledgerwire/test-kit';
import { startConsoleRelay, type ConsoleRelay } from '../support/console-relay.js';
import { ConsoleSignIn } from '../pages/console-sign-in.js';

describe.skipIf(!browserAvailable())('console sign-in', () => {
  let relay: ConsoleRelay;
  let browser: Browser;

  beforeAll(async () => {
    relay = await startConsoleRelay();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await relay?.close();
  });

  it('refuses a wrong token in plain words, then accepts the right one', async (test) => {
    const { page, problems } = await openPage(browser, test);
    const signIn = new ConsoleSignIn(page, relay.consoleUrl);
    await signIn.open();
    await keepScreenshot(page, 'sign-in-1280');

    await signIn.signIn('lwop_not-the-right-token-at-all-000000');
    expect(await signIn.errorText()).toContain('That operator token was not accepted');
    expect(problems.failedResponses).toEqual([expect.stringMatching(/^401 GET .*\/admin\/v1\/whoami$/)]);

    await signIn.signIn(TEST_OPERATOR_TOKEN);
    await signIn.waitUntilSignedIn();
    expect(problems.consoleErrors.filter((e) => !e.includes('401'))).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
  });

  it('signs in from the printed #token= link and clears the token from the address bar', async (test) => {
    const { page, problems } = await openPage(browser, test);
    const signIn = new ConsoleSignIn(page, relay.consoleUrl);
    await signIn.openWithTokenLink(TEST_OPERATOR_TOKEN);
    await signIn.waitUntilSignedIn();
    expect(page.url()).not.toContain(TEST_OPERATOR_TOKEN);
    expect(problems.failedResponses).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
  });

  it('serves the bundle with long-cache hashed names and a strict content security policy', async () => {
    const index = await fetch(relay.consoleUrl);
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await index.text();
    const script = /src="(\/console\/assets\/main-[A-Z0-9]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${relay.baseUrl}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toContain('text/javascript');
    expect((await fetch(`${relay.baseUrl}/console/assets/main-NOPE.js`)).status).toBe(404);
  });
});
