// The local page in Debian's Chromium, driven as a person would: enrol by pasting the token, pair the
// books company to one of the customer's companies, read the state in plain words, see a failed job
// explained with its voucher's type, number, date, party and amount, sync now, read the log. The page
// is the Preact app built with the product's UI kit; the API behind it refuses calls without the
// per-start token or from another host name.
import http from 'node:http';
import type { Browser } from 'playwright-core';
import { eventually } from '@ledgerwire/test-kit';
import { launchChromium } from '../helpers/chromium.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startConnectorService, type ConnectorHandle } from '../../src/index.js';
import { FAST, transactionSettled } from '../helpers/connected-connector.js';
import { startTestEmulator, tempDataDir, type TestEmulator } from '../helpers/test-emulator.js';
import { startCustomerRelay, type CustomerRelay } from '../helpers/customer-relay.js';
import { documentsByEndpoint } from '../helpers/voucher-documents.js';
import { ConnectorHomePage } from './pages/connector-home-page.js';

const browserAvailable = inject('browserAvailable');
/** The page polls once a second and the machine may be busy: wait for what a person would wait for. */
const SLOW = { timeout: 30_000 };
if (!browserAvailable) console.warn('SKIPPING the connector UI browser suite: no Chromium (set REQUIRE_BROWSER=1 to make this fail)');

describe.skipIf(!browserAvailable)('connector local UI', { timeout: 120_000 }, () => {
  let relay: CustomerRelay;
  let books: TestEmulator;
  let connector: ConnectorHandle;
  let browser: Browser;

  beforeAll(async () => {
    relay = await startCustomerRelay({ companies: 2, env: { CONNECTOR_CLAIM_INTERVAL_MS: '200' } });
    books = await startTestEmulator();
    connector = await startConnectorService({ dataDir: tempDataDir(), booksUrl: books.xmlUrl, config: FAST });
    browser = await launchChromium();
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
    await eventually('page.relayState().textContent() toMatch /Not set up yet/', async () => {
      expect(await page.relayState().textContent()).toMatch(/Not set up yet/);
      return true;
    }, { timeoutMs: SLOW.timeout });
    // A new connector's page is its enrolment: nothing to pair or sync is shown before it.
    expect(await page.enrolForm().count()).toBe(1);
    expect(await page.pairForm().count()).toBe(0);
    expect(await page.syncState().count()).toBe(0);
    await eventually('page.booksState().textContent() toMatch /TallyPrime is running with 2 companies open/', async () => {
      expect(await page.booksState().textContent()).toMatch(/TallyPrime is running with 2 companies open/);
      return true;
    }, { timeoutMs: SLOW.timeout });
    expect(await page.booksHelp().count()).toBe(0);
    // Only the jobs handed to this connector are counted, and the words say so.
    expect(await page.queueState().textContent()).toBe('No jobs here waiting for the books (0 done).');

    await page.enrol(relay.baseUrl, relay.customerToken, 'shop-counter');
    await eventually('page.enrolResult().textContent() toMatch /Connected as con_/', async () => {
      expect(await page.enrolResult().textContent()).toMatch(/Connected as con_/);
      return true;
    }, { timeoutMs: SLOW.timeout });
    await eventually('page.relayState().textContent() toMatch /Connected to the relay/', async () => {
      expect(await page.relayState().textContent()).toMatch(/Connected to the relay/);
      return true;
    }, { timeoutMs: SLOW.timeout });
    expect(await page.enrolForm().count()).toBe(0);
    await eventually('page.syncState().textContent() toBe \'Nothing to sync yet: no company is paired.\'', async () => {
      expect(await page.syncState().textContent()).toBe('Nothing to sync yet: no company is paired.');
      return true;
    }, { timeoutMs: SLOW.timeout });
    // Idle is not "100 % done": no bar at all while no sync runs.
    expect(await page.syncProgress().count()).toBe(0);
    await eventually('page.page.locator(\'#version\').textContent() toMatch /^shop-counter · version \\d/', async () => {
      expect(await page.page.locator('#version').textContent()).toMatch(/^shop-counter · version \d/);
      return true;
    }, { timeoutMs: SLOW.timeout });

    const companyId = relay.companyIds[0] as number;
    const booksCompany = (await books.companies())[0] as { guid: string; name: string };
    await eventually('page.page.getByLabel(\'Your company\').locator(\'option\').count() toBeGreaterThan 0', async () => {
      expect(await page.page.getByLabel('Your company').locator('option').count()).toBeGreaterThan(0);
      return true;
    }, { timeoutMs: SLOW.timeout });
    await page.pair(booksCompany.name, companyId);
    await eventually('page.pairResult().textContent() toMatch `Paired company ${companyId}`', async () => {
      expect(await page.pairResult().textContent()).toMatch(`Paired company ${companyId}`);
      return true;
    }, { timeoutMs: SLOW.timeout });
    // Companies by the customer's name for them, with the company they are in TallyPrime.
    await eventually('page.companyCell(companyId, \'Company\').textContent() toBe `Acme books 1 company ${companyId}`', async () => {
      expect(await page.companyCell(companyId, 'Company').textContent()).toBe(`Acme books 1 company ${companyId}`);
      return true;
    }, { timeoutMs: SLOW.timeout });
    expect(await page.companyCell(companyId, 'In TallyPrime').textContent()).toBe(booksCompany.name);

    const document = documentsByEndpoint('U1').journals as Record<string, unknown>;
    const bad = await relay.api('POST', `/api/v1/journals?company_id=${companyId}`, {
      ...document,
      ledger_entries: [
        { ledger_name: 'Staff Welfare', amount: 10, is_debit: true },
        { ledger_name: 'Cash', amount: 10, is_debit: false },
      ],
    });
    await transactionSettled(relay, bad.transaction_id, companyId);
    await eventually('page.jobCell(bad.transaction_id, \'Details\').textContent() toMatch /"Staff Welfare" does not exist.*Create it in TallyPrime/', async () => {
      expect(await page.jobCell(bad.transaction_id, 'Details').textContent()).toMatch(/"Staff Welfare" does not exist.*Create it in TallyPrime/);
      return true;
    }, { timeoutMs: SLOW.timeout });
    expect(await page.jobCell(bad.transaction_id, 'State').textContent()).toMatch(/^Failed/);
    // Each job says which voucher it is: type and number, its date, party and amount, as sent.
    expect(await page.jobCell(bad.transaction_id, 'Voucher or master').textContent()).toBe('Journal no. JV-U1 Acme books 1');
    expect(await page.jobCell(bad.transaction_id, 'Date').textContent()).toMatch(/2026|26/);
    expect(await page.jobCell(bad.transaction_id, 'Party').textContent()).toBe(String(document['party_ledger']));
    expect(await page.jobCell(bad.transaction_id, 'Amount').textContent()).toBe('10.00');
    // A master is named by its kind and name, in any script as it was sent.
    const master = await relay.api('POST', `/api/v1/masters/ledger?company_id=${companyId}`, { name: 'शर्मा & சன்ஸ் <Pune>', parent: 'Sundry Debtors' });
    await transactionSettled(relay, master.transaction_id, companyId);
    await eventually('page.jobCell(master.transaction_id, \'Voucher or master\').textContent() toBe \'ledger "शर्मा & சன்ஸ் <Pune>" Acme books 1\'', async () => {
      expect(await page.jobCell(master.transaction_id, 'Voucher or master').textContent()).toBe('ledger "शर्मा & சன்ஸ் <Pune>" Acme books 1');
      return true;
    }, { timeoutMs: SLOW.timeout });
    expect(await page.jobCell(master.transaction_id, 'Amount').textContent()).toBe('—');

    await eventually('sync now to be available', async () => !(await page.syncButton().isDisabled()));
    await page.syncNow();
    // Times are the browser's local time, with how long ago in words.
    await eventually('page.companyCell(companyId, \'Last synced\').textContent() toMatch /\\d{1,2}:\\d{2}:\\d{2}.*\\((just now|1 minute ago)\\)$/', async () => {
      expect(await page.companyCell(companyId, 'Last synced').textContent()).toMatch(/\d{1,2}:\d{2}:\d{2}.*\((just now|1 minute ago)\)$/);
      return true;
    }, { timeoutMs: SLOW.timeout });
    await eventually('page.syncState().textContent() toMatch /^Idle\\. The last sync finished at \\d{1,2}:\\d{2}:\\d{2}.*\\((just now|1 minute ago)\\)\\.$/', async () => {
      expect(await page.syncState().textContent()).toMatch(/^Idle\. The last sync finished at \d{1,2}:\d{2}:\d{2}.*\((just now|1 minute ago)\)\.$/);
      return true;
    }, { timeoutMs: SLOW.timeout });
    // The company named as the companies list names it, not by its id alone.
    await eventually('page.syncResult().textContent() toMatch new RegExp(`^Acme books 1 \\\\(company ${companyId}\\\\): (up to date|.* sent)`)', async () => {
      expect(await page.syncResult().textContent()).toMatch(new RegExp(`^Acme books 1 \\(company ${companyId}\\): (up to date|.* sent)`));
      return true;
    }, { timeoutMs: SLOW.timeout });
    expect(await page.syncProgress().count()).toBe(0);
    expect(await page.companyCell(companyId, 'State').textContent()).toBe('Open');

    // Pairing the same books company with another of the customer's companies would unpair the first:
    // the page says so and goes ahead only when Pair is pressed again.
    const other = relay.companyIds[1] as number;
    await page.pair(booksCompany.name, other);
    await eventually('page.pairResult().textContent() toMatch new RegExp(`^"${booksCompany.name}" is paired with Acme books 1 \\\\(id ${companyId}\\\\) now: pairin...', async () => {
      expect(await page.pairResult().textContent()).toMatch(
      new RegExp(`^"${booksCompany.name}" is paired with Acme books 1 \\(id ${companyId}\\) now: pairing it here unpairs that company.*Press Pair again to go ahead\\.$`),
    );
      return true;
    }, { timeoutMs: SLOW.timeout });
    expect(await page.companies().count()).toBe(1);
    await eventually('page.company(companyId).count() toBe 1', async () => {
      expect(await page.company(companyId).count()).toBe(1);
      return true;
    }, { timeoutMs: SLOW.timeout });
    await page.pairButton().click();
    await eventually('page.pairResult().textContent() toMatch `Paired company ${other}`', async () => {
      expect(await page.pairResult().textContent()).toMatch(`Paired company ${other}`);
      return true;
    }, { timeoutMs: SLOW.timeout });
    await eventually('page.companies().allTextContents() toEqual [expect.stringMatching(new RegExp(`^Acme books 2 company ${other}${booksCompany.name}`))]', async () => {
      expect(await page.companies().allTextContents()).toEqual([expect.stringMatching(new RegExp(`^Acme books 2 company ${other}${booksCompany.name}`))]);
      return true;
    }, { timeoutMs: SLOW.timeout });

    // At a phone's width nothing runs off the side of the page.
    await page.page.setViewportSize({ width: 400, height: 800 });
    expect(await page.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(400);
    await eventually('page.log().textContent() toMatch /paired company \\d+ with/', async () => {
      expect(await page.log().textContent()).toMatch(/paired company \d+ with/);
      return true;
    }, { timeoutMs: SLOW.timeout });
    expect(page.problems).toEqual([]);
  });

  it('unpairs a company only when asked twice, and says what that stops', async () => {
    // Enrolled by the test before (or here, when run alone), with a company paired.
    if (connector.status().relay.state === 'not_enrolled') await connector.service.enrol({ relayUrl: relay.baseUrl, token: relay.customerToken, machineName: 'shop-counter' });
    await eventually('the connector to come online', () => connector.status().relay.state === 'online');
    const companyId = relay.companyIds[1] as number;
    const name = 'Acme books 2';
    await connector.service.pair(companyId, ((await books.companies())[0] as { name: string }).name);
    const page = new ConnectorHomePage(await browser.newPage());
    await page.open(connector.uiUrl);
    await eventually('page.companyCell(companyId, \'Company\').textContent() toBe `${name} company ${companyId}`', async () => {
      expect(await page.companyCell(companyId, 'Company').textContent()).toBe(`${name} company ${companyId}`);
      return true;
    }, { timeoutMs: SLOW.timeout });
    await page.unpair(name);
    await eventually('page.unpairDialog().textContent() toMatch new RegExp(`^Unpair ${name} \\\\(company ${companyId}\\\\) from this computer\\\\? Its jobs and sync ...', async () => {
      expect(await page.unpairDialog().textContent()).toMatch(new RegExp(`^Unpair ${name} \\(company ${companyId}\\) from this computer\\? Its jobs and sync stop here`));
      return true;
    }, { timeoutMs: SLOW.timeout });
    // Keep it: nothing changes.
    await page.unpairDialog().getByRole('button', { name: 'Keep it' }).click();
    expect(await page.unpairDialog().count()).toBe(0);
    expect(connector.status().pairings.map((p) => p.companyId)).toEqual([companyId]);
    await page.unpair(name);
    await page.unpairDialog().getByRole('button', { name: `Yes, unpair ${name}` }).click();
    await eventually('page.page.getByRole(\'status\').filter({ hasText: \'Unpaired\' }).textContent() toBe `Unpaired ${name} (company ${companyId}): its jobs and s...', async () => {
      expect(await page.page.getByRole('status').filter({ hasText: 'Unpaired' }).textContent()).toBe(
      `Unpaired ${name} (company ${companyId}): its jobs and sync no longer run on this computer.`,
    );
      return true;
    }, { timeoutMs: SLOW.timeout });
    await eventually('page.companies().count() toBe 0', async () => {
      expect(await page.companies().count()).toBe(0);
      return true;
    }, { timeoutMs: SLOW.timeout });
    expect(connector.status().pairings).toEqual([]);
    const atRelay = await relay.api('GET', `/api/v1/companies/${companyId}/health`);
    expect(atRelay.paired).toBe(false);
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
    const unpairNothing = await fetch(new URL('/api/unpair', base), { method: 'POST', headers: { 'x-ui-token': token, 'content-type': 'application/json' }, body: '{}' });
    expect(unpairNothing.status).toBe(400);
    expect(await unpairNothing.json()).toEqual({ error: 'say which company to unpair' });
  });

  it('serves the page with a strict policy, and its hashed assets from the same origin', async () => {
    const base = new URL(connector.uiUrl);
    const index = await fetch(new URL('/', base));
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(index.headers.get('cache-control')).toBe('no-store');
    const html = await index.text();
    const script = /src="(\/assets\/main-[A-Z0-9]+\.js)"/.exec(html)?.[1];
    const style = /href="(\/assets\/main-[A-Z0-9]+\.css)"/.exec(html)?.[1];
    expect(script && style).toBeTruthy();
    const js = await fetch(new URL(script as string, base));
    expect([js.status, js.headers.get('content-type'), js.headers.get('cache-control')]).toEqual([200, 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable']);
    const css = await fetch(new URL(style as string, base));
    expect([css.status, css.headers.get('content-type')]).toEqual([200, 'text/css; charset=utf-8']);
    expect(await css.text()).toContain('.progress-fill');
    const missing = await fetch(new URL('/assets/main-OLD.js', base));
    expect(missing.status).toBe(404);
    // The hand-written files of the old page are gone.
    expect((await fetch(new URL('/app.js', base))).status).toBe(404);
  });
});
