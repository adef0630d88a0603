// The accounting bridge in the console, as support would use it: create an application and a key with
// capabilities; a company created through the API is paired with the books company a connector
// reports and shows healthy; a failed voucher shows the XML sent and its error in plain words; the
// application's webhook history shows a failed delivery, and redeliver sends it again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, keepScreenshot, launchChromium, openPage } from '../support/browser-session.js';
import { call, eventually, startWebhookCatcher, TEST_OPERATOR_TOKEN, type WebhookCatcher } from '@ledgerwire/test-kit';
import { startConsoleRelay, type ConsoleRelay } from '../support/console-relay.js';
import { ProtocolConnector } from '../support/protocol-connector.js';
import { ConsoleShell } from '../pages/console-shell.js';
import { ConsoleApplications } from '../pages/console-applications.js';
import { ConsoleCompanies } from '../pages/console-companies.js';
import { ConsoleTransactions } from '../pages/console-transactions.js';
import { ConsoleWebhooks } from '../pages/console-webhooks.js';

/** Browser state follows the relay within a few seconds, even on a busy machine. */
const POLL = { timeout: 10_000, interval: 100 };

const BOOKS_COMPANY = { guid: 'guid-northwind-books', name: 'Northwind Traders (Books)' };

const JOURNAL = {
  voucher_number: 'JV-42',
  voucher_type: 'Journal',
  party_ledger: 'Office Rent',
  date: '2026-04-01',
  narration: 'Rent for April',
  ledger_entries: [
    { ledger_name: 'Office Rent', amount: 25000, is_debit: true },
    { ledger_name: 'Cash', amount: 25000, is_debit: false },
  ],
  transaction_id: 'rent-2026-04',
};

const PULLED_SALE = (guid: string, voucherNumber: string) => ({
  guid,
  alter_id: '7',
  master_id: '101',
  voucher_type: 'Sales',
  reserved_name: 'Sales',
  voucher_number: voucherNumber,
  voucher_date: '20260402',
  party_ledger: 'Acme Retail',
  ledger_entries: [{ ledger: 'Acme Retail', amount: '-1180.00' }],
});

describe.skipIf(!browserAvailable())('console: accounting bridge', () => {
  let relay: ConsoleRelay;
  let browser: Browser;
  let receiver: WebhookCatcher;
  let connector: ProtocolConnector | undefined;

  beforeAll(async () => {
    relay = await startConsoleRelay();
    browser = await launchChromium();
    // The first delivery is refused, every later one accepted: the history shows both.
    receiver = await startWebhookCatcher({ statuses: [500, 200] });
  });
  afterAll(async () => {
    await connector?.close();
    await browser?.close();
    await relay?.close();
    await receiver?.close();
  });

  it('pairs a company with the books, shows it healthy, explains a failed voucher and redelivers a webhook', async (test) => {
    const { page, problems } = await openPage(browser, test);
    const shell = new ConsoleShell(page, relay.consoleUrl);
    const applications = new ConsoleApplications(shell);
    const companies = new ConsoleCompanies(shell);
    const transactions = new ConsoleTransactions(shell);
    const webhooks = new ConsoleWebhooks(shell);
    await shell.signInWithLink(TEST_OPERATOR_TOKEN);

    // An application and a key with capabilities, made in the console.
    await applications.open();
    await applications.create('Northwind Invoicing');
    const credential = await applications.createKey('live', ['pull.master', 'report.stock']);
    const keyId = credential.split(':')[0] ?? '';
    expect(credential).toMatch(/^[^:]+:.+$/);
    expect(await applications.keyRow(keyId).innerText()).toContain('pull.master, report.stock');
    expect((await call<{ success: boolean }>(relay, 'GET', '/api/v1/ping', 200, { token: credential })).body).toMatchObject({ success: true });

    // The integrator's side, through the API: a webhook endpoint, a customer and a company.
    await call(relay, 'POST', '/api/v1/webhooks', 200, { token: credential, payload: { url: receiver.url(), events: ['connector.online'] } });
    const { customer } = (await call<{ customer: { id: string; token: string } }>(relay, 'POST', '/api/v1/customers', 200, {
      token: credential,
      payload: { name: 'Northwind Traders' },
    })).body;
    const { company_id: companyId } = (await call<{ company_id: number }>(relay, 'POST', '/api/v1/companies', 200, {
      token: credential,
      payload: { name: 'Northwind Traders Pvt Ltd', customer_id: customer.id },
    })).body;

    await companies.open();
    expect(await companies.row('Northwind Traders Pvt Ltd').innerText()).toContain('Not paired');

    // The end user's connector enrols and reports the company open in the books.
    connector = await ProtocolConnector.start({
      baseUrl: relay.baseUrl,
      customerToken: customer.token,
      machineName: 'NORTHWIND-PC',
      books: { running: true, product: 'TallyPrime 5.1', open_companies: [BOOKS_COMPANY] },
      // The books refuse the voucher naming a ledger they lack and book the other one.
      decide: (job) =>
        job.xml.includes('Office Rent')
          ? { status: 'failed', error_code: 'MASTER_NOT_FOUND', error_label: 'Master not found', error_message: "Ledger 'Office Rent' does not exist" }
          : { status: 'completed', books_voucher_guid: 'guid-booked-jv-43', books_master_id: '311', books_alter_id: '912' },
    });
    await companies.openConnectors();
    const connectorRow = await companies.connectorRow('NORTHWIND-PC').innerText();
    expect(connectorRow).toContain('online');
    expect(connectorRow).toContain('1.4.2');
    expect(connectorRow).toContain('running');
    expect(connectorRow).toContain(BOOKS_COMPANY.name);

    // Support pairs the company and sees it healthy.
    await companies.open();
    await companies.openCompany('Northwind Traders Pvt Ltd');
    await companies.pair('NORTHWIND-PC', BOOKS_COMPANY.name);
    await eventually('companies.healthPanel().innerText() toContain \'Healthy\'', async () => {
      expect(await companies.healthPanel().innerText()).toContain('Healthy');
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    expect(await companies.pulledCounts().innerText()).toMatch(/Vouchers pending\s+0/);

    // The books' vouchers arrive through the connector's sync: the counts show them.
    await connector.syncVouchers(companyId, [PULLED_SALE('guid-v-1', 'S-1'), PULLED_SALE('guid-v-2', 'S-2')]);
    await page.reload();
    await eventually('companies.pulledCounts().innerText() toMatch /Vouchers pending\\s+2/', async () => {
      expect(await companies.pulledCounts().innerText()).toMatch(/Vouchers pending\s+2/);
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    await keepScreenshot(page, 'company-paired-1280');

    // A voucher the books refuse: the transaction shows the XML sent and the error in plain words.
    const accepted = (await call<{ transaction_id: string }>(relay, 'POST', `/api/v1/journals?company_id=${companyId}`, 200, { token: credential, payload: JOURNAL })).body;
    await connector.jobSettled(accepted.transaction_id);
    await companies.openTransactions();
    await transactions.filter({ companyId, status: 'failed' });
    await transactions.openTransaction(JOURNAL.transaction_id);
    const failure = await transactions.failureNotice().innerText();
    expect(failure).toContain('Master not found');
    expect(failure).toContain('does not exist in the books');
    expect(failure).toContain("Ledger 'Office Rent' does not exist");
    const xml = await transactions.xml().innerText();
    expect(xml).toContain('<ENVELOPE>');
    expect(xml).toContain('JV-42');
    await keepScreenshot(page, 'transaction-failed-1280');
    await transactions.backToList();
    await transactions.filter({ companyId, status: 'completed' });
    await eventually('shell.panel(\'Results\').innerText() toContain \'No transaction matches this search.\'', async () => {
      expect(await shell.panel('Results').innerText()).toContain('No transaction matches this search.');
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });

    // An integrator posts a voucher the books accept and sees it completed, with the books' GUID.
    const booked = { ...JOURNAL, voucher_number: 'JV-43', party_ledger: 'Cash', transaction_id: 'cash-2026-04' };
    booked.ledger_entries = [
      { ledger_name: 'Cash', amount: 500, is_debit: true },
      { ledger_name: 'Sales', amount: 500, is_debit: false },
    ];
    const second = (await call<{ transaction_id: string }>(relay, 'POST', `/api/v1/journals?company_id=${companyId}`, 200, { token: credential, payload: booked })).body;
    await connector.jobSettled(second.transaction_id);
    await transactions.filter({ companyId, status: 'completed' });
    await transactions.openTransaction('cash-2026-04');
    expect(await transactions.failureNotice().count()).toBe(0);
    expect(await shell.panel('Summary').innerText()).toContain('guid-booked-jv-43');
    await transactions.backToList();

    // The webhook history: connector.online was refused once (HTTP 500); redeliver sends it again.
    await eventually('the first webhook attempt', async () => (receiver.received.length > 0 ? true : undefined));
    await shell.visit('#/applications');
    await page.getByRole('link', { name: 'Northwind Invoicing' }).click();
    await applications.openWebhooks();
    const row = webhooks.deliveryRows(receiver.url(), 'connector.online').first();
    const detail = await webhooks.inspect(row);
    expect(JSON.parse(await webhooks.payload(detail).innerText())).toMatchObject({ type: 'connector.online' });
    expect(await webhooks.attempt(detail, 1).innerText()).toContain('HTTP 500');
    expect(await webhooks.responseBody(detail, 1).innerText()).toBe('receiver says no');
    await webhooks.redeliver(row);
    await eventually('the redelivery', async () => (receiver.received.some((r) => r.status === 200) ? true : undefined));
    // The relay records the attempt just after the receiver answers: reload until the history shows it.
    await eventually('the page, reloaded, toContain \'succeeded\'', async () => {
      expect(await (async () => {
        await page.reload();
        return webhooks.deliveries(receiver.url()).innerText();
      })()).toContain('succeeded');
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    await keepScreenshot(page, 'webhooks-1280');

    expect(problems.pageErrors).toEqual([]);
    expect(problems.consoleErrors).toEqual([]);
    expect(problems.failedResponses).toEqual([]);
  }, 90_000);
});
