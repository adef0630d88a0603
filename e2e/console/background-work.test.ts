// The console's Operations → Background work page lists the relay's background loops with their state,
// last pass, the wait of the oldest due row and the last error, as /readyz reports them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, launchChromium, openPage } from '../support/browser-session.js';
import { TEST_OPERATOR_TOKEN } from '@ledgerwire/test-kit';
import { startConsoleRelay, type ConsoleRelay } from '../support/console-relay.js';
import { ConsoleShell } from '../pages/console-shell.js';
import { ConsoleBackgroundWork } from '../pages/console-background-work.js';

describe.skipIf(!browserAvailable())('console background work', () => {
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

  it('shows every loop, working, with the dispatch queue’s wait', async (test) => {
    const { page, problems } = await openPage(browser, test);
    const shell = new ConsoleShell(page, relay.consoleUrl);
    await shell.signInWithLink(TEST_OPERATOR_TOKEN);
    const work = new ConsoleBackgroundWork(page);
    await work.open();
    const dispatch = work.loopRow('messaging-dispatch');
    await dispatch.waitFor();
    expect(await dispatch.textContent()).toContain('working');
    expect(await dispatch.textContent()).toContain('none');
    for (const name of ['webhook-delivery', 'bridge-lease-reaper', 'connector-claims']) expect(await work.loopRow(name).count()).toBe(1);
    expect(problems.failedResponses).toEqual([]);
    expect(problems.pageErrors).toEqual([]);
  });
});
