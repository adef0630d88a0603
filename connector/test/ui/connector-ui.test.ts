// The local page in Debian's Chromium, driven as a person would: enrol by pasting the token, pair the
// books company to one of the customer's companies, read the state in plain words, see a failed job
// explained, sync now, read the log. The API behind it refuses calls without the per-start token.
import http from 'node:http';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startConnectorService, type ConnectorHandle } from '../../src/core/index.js';
import { FAST, transactionSettled } from '../helpers/connected-connector.js';
import { eventually, startTestEmulator, tempDataDir, type TestEmulator } from '../helpers/test-emulator.js';
import { startTestRelay, type TestRelay } from '../helpers/test-relay.js';
import { documentsByEndpoint } from '../helpers/voucher-documents.js';
import { ConnectorHomePage } from './pages/connector-home-page.js';

const browserAvailable = inject('browserAvailable');
/** The page polls once a second and the machine may be busy: wait for what a person would wait for. */
const SLOW = { timeout: 30_000 };
if (!browserAvailable) console.warn('SKIPPING the connector UI browser suite: no Chromium (set REQUIRE_BROWSER=1 to make this fail)');

describe.skipIf(!browserAvailable)('connector local UI', { timeout: 120_000 }, () => {
  let relay: TestRelay;
  let books: TestEmulator;
  let connector: ConnectorHandle;
  let browser: Browser;

  beforeAll(async () => {
    relay = await startTestRelay({ companies: 2, env: { CONNECTOR_CLAIM_INTERVAL_MS: '200' } });
    books = await startTestEmulator();
    connector = await startConnectorService({ dataDir: tempDataDir(), booksUrl: books.xmlUrl, config: FAST });
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  });
  afterAll(async () => {
    await browser?.close();
    await connector?.stop();
    await relay?.close();
    await books?.close();
  });

  it('takes a person from enrolment to a synced, paired company with jobs explained', async () => {
    const page = new ConnectorHomePage(await browser.newPage());
    await page.open(connector.uiUrl);
    await expect.poll(() => page.relayState().textContent(), SLOW).toMatch(/Not set up yet/);
    // Before enrolment there is nothing to pair: the pair form is not shown.
    expect(await page.page.locator('#pair-form').isVisible()).toBe(false);
    await expect.poll(() => page.booksState().textContent(), SLOW).toMatch(/TallyPrime is running with 2 companies open/);
    await expect.poll(() => page.syncState().textContent(), SLOW).toBe('Idle; nothing has been synced yet.');
    // Only the jobs handed to this connector are counted, and the words say so.
    expect(await page.queueState().textContent()).toBe('No jobs here waiting for the books (0 done).');
    expect(await page.syncProgress().getAttribute('value')).toBe('0');

    await page.enrol(relay.baseUrl, relay.customerToken, 'shop-counter');
    await expect.poll(() => page.enrolResult().textContent(), SLOW).toMatch(/Connected as con_/);
    await expect.poll(() => page.relayState().textContent(), SLOW).toMatch(/Connected to the relay/);
    expect(await page.enrolSection().isHidden()).toBe(true);

    const companyId = relay.companyIds[0] as number;
    const booksCompany = (await books.companies())[0] as { guid: string; name: string };
    await expect.poll(() => page.page.locator('#pair-company option').count(), SLOW).toBeGreaterThan(0);
    await page.pair(booksCompany.name, companyId);
    await expect.poll(() => page.pairResult().textContent(), SLOW).toMatch(`Paired company ${companyId}`);
    await expect.poll(() => page.pairings().first().textContent(), SLOW).toMatch(new RegExp(`"${booksCompany.name}" is open`));

    const document = documentsByEndpoint('U1').journals as Record<string, unknown>;
    const bad = await relay.api('POST', `/api/v1/journals?company_id=${companyId}`, {
      ...document,
      ledger_entries: [
        { ledger_name: 'Staff Welfare', amount: 10, is_debit: true },
        { ledger_name: 'Cash', amount: 10, is_debit: false },
      ],
    });
    await transactionSettled(relay, bad.transaction_id, companyId);
    await expect.poll(() => page.job(bad.transaction_id).textContent(), SLOW).toMatch(/failed.*"Staff Welfare" does not exist.*Create it in TallyPrime/);
    // Each job says which voucher or master it is, names in any script as they were sent.
    expect(await page.jobWhat(bad.transaction_id).textContent()).toMatch(/^Journal no\. JV-U1 — voucher \(/);
    const master = await relay.api('POST', `/api/v1/masters/ledger?company_id=${companyId}`, { name: 'शर्मा & சன்ஸ் <Pune>', parent: 'Sundry Debtors' });
    await transactionSettled(relay, master.transaction_id, companyId);
    await expect.poll(() => page.jobWhat(master.transaction_id).textContent(), SLOW).toMatch(/^ledger "शर्मा & சன்ஸ் <Pune>" — master \(/);

    await eventually(async () => !(await page.syncButton().isDisabled()), 'sync now to be available');
    await page.syncNow();
    // In words a person reads at a glance, not an ISO timestamp.
    await expect.poll(() => page.pairings().first().textContent(), SLOW).toMatch(/last synced (just now|a minute ago) \(/);
    await expect.poll(() => page.syncState().textContent(), SLOW).toMatch(/^Idle; the last sync finished (just now|a minute ago)\.$/);
    // The company named as the paired-company list names it, not by its id alone.
    await expect.poll(() => page.syncResult().textContent(), SLOW).toMatch(new RegExp(`^Acme books 1 \\(company ${companyId}\\): (up to date|.* sent)`));
    expect(await page.syncProgress().getAttribute('value')).toBe('100');

    // Pairing the same books company with another of the customer's companies would unpair the first:
    // the page says so and goes ahead only when Pair is pressed again.
    const other = relay.companyIds[1] as number;
    await page.pair(booksCompany.name, other);
    await expect.poll(() => page.pairResult().textContent(), SLOW).toMatch(
      new RegExp(`^"${booksCompany.name}" is paired with Acme books 1 \\(id ${companyId}\\) now: pairing it here unpairs that company.*Press Pair again to go ahead\\.$`),
    );
    await expect.poll(() => page.pairings().first().textContent(), SLOW).toMatch(new RegExp(`^Acme books 1 \\(company ${companyId}\\):`));
    await page.page.getByRole('button', { name: 'Pair' }).click();
    await expect.poll(() => page.pairResult().textContent(), SLOW).toMatch(`Paired company ${other}`);
    // Companies are named as the customer knows them.
    await expect.poll(() => page.pairings().allTextContents(), SLOW).toEqual([expect.stringMatching(new RegExp(`^Acme books 2 \\(company ${other}\\): "${booksCompany.name}" is open`))]);

    // At a phone's width nothing runs off the side of the page.
    await page.page.setViewportSize({ width: 400, height: 800 });
    expect(await page.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(400);
    await expect.poll(() => page.log().textContent(), SLOW).toMatch(/paired company \d+ with/);
    expect(page.problems).toEqual([]);
  });

  it('refuses API calls without the per-start token or from another host name', async () => {
    const base = new URL(connector.uiUrl);
    const noToken = await fetch(new URL('/api/status', base));
    expect(noToken.status).toBe(401);
    const token = base.searchParams.get('token') ?? '';
    const withToken = await fetch(new URL('/api/status', base), { headers: { 'x-ui-token': token } });
    expect(withToken.status).toBe(200);
    // A page on another site whose name was rebound to 127.0.0.1 sends its own Host.
    const rebound = await new Promise<number | undefined>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port: Number(base.port), path: '/api/status', headers: { 'x-ui-token': token, host: `evil.example:${base.port}` } }, (response) => {
          response.resume();
          resolve(response.statusCode);
        })
        .on('error', reject);
    });
    expect(rebound).toBe(421);
    const form = await fetch(new URL('/api/sync-now', base), { method: 'POST', headers: { 'x-ui-token': token, 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1' });
    expect(form.status).toBe(415);
  });
});
