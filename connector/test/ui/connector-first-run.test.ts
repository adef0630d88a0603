// A new connector's page as a shop owner meets it in Chromium: the relay's address came with the
// installer, so connecting takes one field; TallyPrime that does not answer comes with the steps to fix
// it in TallyPrime's own menu words; TallyPrime's address can be set for another computer of the office;
// "Copy diagnostics" copies what support needs and never a secret; and all of it fits a phone's width.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { eventually } from '@ledgerwire/test-kit';
import { launchChromium } from '../helpers/chromium.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startConnectorService, type ConnectorHandle } from '../../src/index.js';
import { FAST } from '../helpers/connected-connector.js';
import { startTestEmulator, tempDataDir, type TestEmulator } from '../helpers/test-emulator.js';
import { startCustomerRelay, type CustomerRelay } from '../helpers/customer-relay.js';
import { ConnectorHomePage } from './pages/connector-home-page.js';

const browserAvailable = inject('browserAvailable');
const SLOW = { timeout: 30_000 };

async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.skipIf(!browserAvailable)('the connector page on first run', { timeout: 120_000 }, () => {
  let relay: CustomerRelay;
  let books: TestEmulator;
  let connector: ConnectorHandle;
  let browser: Browser;

  beforeAll(async () => {
    [relay, books] = await Promise.all([startCustomerRelay({ companies: 2 }), startTestEmulator()]);
    connector = await startConnectorService({ dataDir: tempDataDir(), config: FAST });
    // As the installer leaves it: the relay's address known, TallyPrime looked for where nothing answers.
    connector.service.rememberRelayUrl(relay.baseUrl);
    await connector.service.setBooksUrl(`127.0.0.1:${await closedPort()}`);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await connector?.stop();
    await relay?.close();
    await books?.close();
  });

  it('connects with one field, says what to do in TallyPrime, and copies diagnostics without secrets', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(connector.uiUrl).origin });
    const page = new ConnectorHomePage(await context.newPage());
    await page.open(connector.uiUrl);

    await eventually('page.page.locator(\'#relay-known\').textContent() toContain `Connects to ${relay.baseUrl}.`', async () => {
      expect(await page.page.locator('#relay-known').textContent()).toContain(`Connects to ${relay.baseUrl}.`);
      return true;
    }, { timeoutMs: SLOW.timeout });
    expect(await page.page.getByLabel('Relay address').count()).toBe(0);
    // Nothing answers on this computer and Linux has no process list to ask: both fixes are given.
    await eventually('page.booksHelp().getAttribute(\'data-attention\') toBe \'not_answering\'', async () => {
      expect(await page.booksHelp().getAttribute('data-attention')).toBe('not_answering');
      return true;
    }, { timeoutMs: SLOW.timeout });
    expect(await page.booksHelp().textContent()).toContain('Exchange > Data Synchronization');
    expect(await page.booksState().textContent()).toMatch(/^TallyPrime does not answer at http:\/\/127\.0\.0\.1:\d+\. Open TallyPrime and load your company/);

    // TallyPrime is elsewhere: typed as a person types it, without http://.
    await page.page.getByLabel("TallyPrime's address").last().fill(books.xmlUrl.replace('http://', ''));
    await page.page.getByRole('button', { name: 'Use this address' }).click();
    await eventually('page.booksState().textContent() toMatch /TallyPrime is running with 2 companies open/', async () => {
      expect(await page.booksState().textContent()).toMatch(/TallyPrime is running with 2 companies open/);
      return true;
    }, { timeoutMs: SLOW.timeout });
    expect(await page.booksHelp().count()).toBe(0);

    await page.page.getByLabel('Code from your software provider').fill(relay.customerToken);
    await page.page.getByRole('button', { name: 'Connect' }).click();
    await eventually('page.enrolResult().textContent() toMatch /Connected as con_/', async () => {
      expect(await page.enrolResult().textContent()).toMatch(/Connected as con_/);
      return true;
    }, { timeoutMs: SLOW.timeout });
    const booksTable = page.page.getByRole('table', { name: 'Companies open in TallyPrime' });
    await eventually('booksTable.locator(\'tbody tr\').count() toBe 2', async () => {
      expect(await booksTable.locator('tbody tr').count()).toBe(2);
      return true;
    }, { timeoutMs: SLOW.timeout });
    expect(await booksTable.textContent()).toContain('Not connected');

    await page.page.getByRole('button', { name: 'Copy diagnostics' }).click();
    await eventually('page.page.getByText(\'Diagnostics copied.\').count() toBe 1', async () => {
      expect(await page.page.getByText('Diagnostics copied.').count()).toBe(1);
      return true;
    }, { timeoutMs: SLOW.timeout });
    const copied = await page.page.evaluate<string>('navigator.clipboard.readText()');
    expect(copied).toMatch(/^Ledgerwire Connector diagnostics, /);
    expect(copied).toContain('Books answer:   HTTP 200: <RESPONSE>TallyPrime Server is Running</RESPONSE>');
    expect(copied).not.toContain(connector.service.settings.enrolment()!.credential);
    expect(copied).not.toContain(relay.customerToken);

    // A phone's width: nothing runs off the side.
    const overflow = await page.page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    expect(page.problems).toEqual([]);
    await context.close();
  });
});
