// A first sync of a company with 3,000 vouchers, watched in Chromium as a person would watch it: the
// bar moves voucher by voucher (counted against what the books' counters say is to come), never
// backwards, and the words never say "up to date" while the sync runs. Idle, there is no bar at all.
// Every change of the page is recorded in the page itself (a MutationObserver), so nothing is sampled
// by sleeping.
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

type Seen = { value: string | null; running: string | null; text: string | null; result: string | null };

/** Records the bar, the sync line and the company's last result at every change of the page. */
const RECORD_CHANGES = `(() => {
  window.__seen = [];
  const record = () => window.__seen.push({
    value: document.querySelector('[role=progressbar]')?.getAttribute('aria-valuenow') ?? null,
    running: document.querySelector('#sync-state')?.getAttribute('data-running') ?? null,
    text: document.querySelector('#sync-state')?.textContent ?? null,
    result: document.querySelector('tr[data-company-id] td[data-title="Last result"]')?.textContent ?? null,
  });
  new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
})()`;

describe.skipIf(!browserAvailable)('connector page: a long first sync', { timeout: 180_000 }, () => {
  let relay: CustomerRelay;
  let books: TestEmulator;
  let connector: ConnectorHandle;
  let browser: Browser;

  beforeAll(async () => {
    relay = await startCustomerRelay({ companies: 1 });
    books = await startTestEmulator({ vouchers: 3000 });
    // Small windows and batches: many confirmed steps, as over a slow line to the relay.
    connector = await startConnectorService({ dataDir: tempDataDir(), booksUrl: books.xmlUrl, config: { ...FAST, syncBatchItems: 50, syncWindowVouchers: 100 } });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await connector?.stop();
    await relay?.close();
    await books?.close();
  });

  it('moves the bar smoothly by vouchers sent, and says "up to date" only once it is', async () => {
    await connector.service.enrol({ relayUrl: relay.baseUrl, token: relay.customerToken, machineName: 'shop-counter' });
    await eventually('the connector to come online', () => connector.status().relay.state === 'online');
    const page = new ConnectorHomePage(await browser.newPage());
    await page.open(connector.uiUrl);
    await eventually('page.syncState().textContent() toBe \'Nothing to sync yet: no company is paired.\'', async () => {
      expect(await page.syncState().textContent()).toBe('Nothing to sync yet: no company is paired.');
      return true;
    }, { timeoutMs: SLOW.timeout });
    expect(await page.syncProgress().count()).toBe(0);
    await page.page.evaluate(RECORD_CHANGES);

    const companyId = relay.companyIds[0] as number;
    const company = (await books.companies())[0] as { name: string; vouchers: number };
    expect(company.vouchers).toBeGreaterThanOrEqual(3000);
    // Books that take a while to answer each of some thirty exports, as a busy TallyPrime does: the sync
    // lasts seconds, whatever the speed of this machine, so the page sees it move.
    await books.control('POST', '/latency', { ms: 150 });
    // Pairing starts the first sync of the company.
    await connector.service.pair(companyId, company.name);
    await eventually('page.companyCell(companyId, \'Last result\').textContent() toMatch /\\d+ vouchers sent/', async () => {
      expect(await page.companyCell(companyId, 'Last result').textContent()).toMatch(/\d+ vouchers sent/);
      return true;
    }, { timeoutMs: 120_000 });
    await eventually('page.syncState().textContent() toMatch /^Idle\\. The last sync finished at /', async () => {
      expect(await page.syncState().textContent()).toMatch(/^Idle\. The last sync finished at /);
      return true;
    }, { timeoutMs: SLOW.timeout });

    const seen = (await page.page.evaluate('window.__seen')) as Seen[];
    const sending = seen.filter((s) => s.value !== null && s.text?.includes('sending vouchers'));
    const values = sending.map((s) => Number(s.value));
    // Forward only, through many values between the start and the end: not a jump from 10 to 90.
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values.filter((v) => v > 10 && v < 90)).size).toBeGreaterThanOrEqual(5);
    // Counted against what the books' counters say is to come.
    expect(sending.some((s) => /sending vouchers, [\d,]+ of about [\d,]+ sent…$/.test(s.text ?? ''))).toBe(true);
    // Nothing claims "up to date" while the sync runs: neither the sync line nor the company's last result.
    const whileRunning = seen.filter((s) => s.running === 'true');
    expect(whileRunning.length).toBeGreaterThan(0);
    expect(whileRunning.filter((s) => /up to date/i.test(`${s.text} ${s.result}`))).toEqual([]);
    expect(whileRunning.some((s) => s.result === 'Syncing now…')).toBe(true);
    // Idle again: no bar (not a full one), and the company open with what the sync sent.
    expect(await page.syncProgress().count()).toBe(0);
    expect(await page.companyCell(companyId, 'State').textContent()).toBe('Open');
    expect(page.problems).toEqual([]);
  });
});
