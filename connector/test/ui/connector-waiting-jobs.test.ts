// What the page says when things hold work back, in Chromium set to an Indian locale and time zone:
// a job waiting because its company is closed in TallyPrime or TallyPrime is not running, with its
// voucher's date, party and amount as a person there writes them (1,18,000.50) and times in their own
// time zone; a sync that failed is "not up to date", never "up to date".
import type { Browser } from 'playwright-core';
import { eventually } from '@ledgerwire/test-kit';
import { launchChromium } from '../helpers/chromium.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startConnectorService, type ConnectorHandle } from '../../src/index.js';
import { enrolAndPair, FAST } from '../helpers/connected-connector.js';
import { journalDocument, voucherJob } from '../helpers/job-fixtures.js';
import { startTestEmulator, tempDataDir, type TestEmulator } from '../helpers/test-emulator.js';
import { startCustomerRelay, type CustomerRelay } from '../helpers/customer-relay.js';
import { ConnectorHomePage } from './pages/connector-home-page.js';

const browserAvailable = inject('browserAvailable');
const SLOW = { timeout: 30_000 };

describe.skipIf(!browserAvailable)('connector page: work held back', { timeout: 120_000 }, () => {
  let relay: CustomerRelay;
  let books: TestEmulator;
  let connector: ConnectorHandle;
  let browser: Browser;

  beforeAll(async () => {
    relay = await startCustomerRelay({ companies: 1 });
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

  it('says why a job waits and why the sync is not up to date, in local words, times and amounts', async () => {
    const companyId = relay.companyIds[0] as number;
    const company = await enrolAndPair(connector, relay, books, companyId);
    await eventually('the first sync to finish', () => connector.status().pairings[0]?.lastSyncAt);
    const page = new ConnectorHomePage(await browser.newPage({ locale: 'en-IN', timezoneId: 'Asia/Kolkata' }));
    await page.open(connector.uiUrl);
    await eventually('page.companyCell(companyId, \'State\').textContent() toBe \'Open\'', async () => {
      expect(await page.companyCell(companyId, 'State').textContent()).toBe('Open');
      return true;
    }, { timeoutMs: SLOW.timeout });

    await books.control('POST', `/companies/${encodeURIComponent(company.guid)}/close`);
    await eventually('page.companyCell(companyId, \'State\').textContent() toBe \'Not open in TallyPrime\'', async () => {
      expect(await page.companyCell(companyId, 'State').textContent()).toBe('Not open in TallyPrime');
      return true;
    }, { timeoutMs: SLOW.timeout });
    // The relay hands no job over for a company closed in the books; one handed over just before the
    // company closed waits here. It is put where the relay's hand-over puts it, the connector's job store.
    const job = voucherJob(company, { ...journalDocument('JV/IN/1', 'Office Rent', 118000.5), party_ledger: 'HDFC Bank' });
    connector.service.jobs.receive([{ ...job, company_id: companyId }]);
    await eventually('page.jobCell(job.job_id, \'Details\').textContent() toBe `"${company.name}" is not open in TallyPrime. Open it and this job runs.`', async () => {
      expect(await page.jobCell(job.job_id, 'Details').textContent()).toBe(`"${company.name}" is not open in TallyPrime. Open it and this job runs.`);
      return true;
    }, { timeoutMs: SLOW.timeout });
    expect(await page.jobCell(job.job_id, 'State').textContent()).toBe('Waiting');
    expect(await page.jobCell(job.job_id, 'Voucher or master').textContent()).toBe('Journal no. JV/IN/1 Acme books 1');
    expect(await page.jobCell(job.job_id, 'Party').textContent()).toBe('HDFC Bank');
    // Indian digit grouping, the books' date as a date, the time in India's time zone.
    expect(await page.jobCell(job.job_id, 'Amount').textContent()).toBe('1,18,000.50');
    expect(await page.jobCell(job.job_id, 'Date').textContent()).toBe('15 Apr 2026');
    const received = new Date(connector.service.recentJobs(1)[0]?.receivedAt ?? '');
    // hourCycle h12 (1–12), as the page shows it: en-GB's hour12 alone reads 0 in the hour after noon and after midnight.
    const inIndia = new Intl.DateTimeFormat('en-GB', { hour: 'numeric', minute: '2-digit', hourCycle: 'h12', timeZone: 'Asia/Kolkata' }).formatToParts(received);
    const [hour, minute] = ['hour', 'minute'].map((type) => inIndia.find((part) => part.type === type)?.value);
    expect(await page.jobCell(job.job_id, 'Received').textContent()).toMatch(new RegExp(`^0?${hour}:${minute}:\\d{2}\\s?(am|pm)$`, 'i'));

    // A sync now cannot read the closed company: it failed, and nothing says "up to date".
    await page.syncNow();
    await eventually('page.syncResult().textContent() toMatch new RegExp(`^Acme books 1 \\\\(company ${companyId}\\\\): failed — "${company.name}" is not open in t...', async () => {
      expect(await page.syncResult().textContent()).toMatch(new RegExp(`^Acme books 1 \\(company ${companyId}\\): failed — "${company.name}" is not open in the books`));
      return true;
    }, { timeoutMs: SLOW.timeout });
    await eventually('page.syncState().textContent() toMatch new RegExp(`^Not up to date: the last sync of Acme books 1 failed \\\\("${company.name}" is not open...', async () => {
      expect(await page.syncState().textContent()).toMatch(
      new RegExp(`^Not up to date: the last sync of Acme books 1 failed \\("${company.name}" is not open in the books; open it to sync\\)\\. It is tried again at the next pass, or press Sync now\\.$`),
    );
      return true;
    }, { timeoutMs: SLOW.timeout });
    expect(await page.companyCell(companyId, 'Last result').textContent()).toMatch(/^Failed: /);
    // (The log keeps the words of earlier passes: it is a record, not a status.)
    for (const panel of ['This computer', 'Companies', 'Sync', 'Recent jobs']) {
      expect(await page.page.getByRole('region', { name: panel, exact: true }).textContent()).not.toMatch(/(?<!not )up to date/i);
    }

    // TallyPrime itself stops: that is what the job waits for now.
    await books.control('POST', '/books/stop');
    await eventually('page.jobCell(job.job_id, \'Details\').textContent() toBe \'TallyPrime is not running (or its XML server is off). Start it and this job runs.\'', async () => {
      expect(await page.jobCell(job.job_id, 'Details').textContent()).toBe('TallyPrime is not running (or its XML server is off). Start it and this job runs.');
      return true;
    }, { timeoutMs: SLOW.timeout });
    await eventually('page.companyCell(companyId, \'State\').textContent() toBe \'TallyPrime not running\'', async () => {
      expect(await page.companyCell(companyId, 'State').textContent()).toBe('TallyPrime not running');
      return true;
    }, { timeoutMs: SLOW.timeout });
    expect(await page.booksState().textContent()).toMatch(/^TallyPrime does not answer at http:\/\/127\.0\.0\.1:\d+\. Open TallyPrime and load your company/);
    // The steps to fix it in TallyPrime come with it: closed, or its XML port off (Linux cannot tell which).
    expect(await page.booksHelp().getAttribute('data-attention')).toBe('not_answering');

    // At a phone's width nothing runs off the side of the page.
    await page.page.setViewportSize({ width: 400, height: 800 });
    expect(await page.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(400);
    expect(page.problems).toEqual([]);
  });
});
