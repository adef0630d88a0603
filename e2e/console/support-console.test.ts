// Issue 21's support console, in Chromium against a relay with a connector built from the shared
// protocol: support lands on Companies, finds a company by name, re-pairs it with another books
// company after a confirmation naming both (Escape cancels), searches its transactions by voucher
// number, party, amount and date, sees why its writes wait once the connector goes away (and that the
// waiting XML is "to be sent", not "sent"); inspects a webhook attempt's payload and response and
// disables, enables and deletes the endpoint; and gets template sample data fitted to the template,
// with a warning for a variable the data lacks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, keepScreenshot, launchChromium, openPage } from '../support/browser-session.js';
import { call, eventually, startWebhookCatcher, TEST_OPERATOR_TOKEN, type WebhookCatcher } from '@ledgerwire/test-kit';
import { startConsoleRelay, type ConsoleRelay } from '../support/console-relay.js';
import { ProtocolConnector } from '../support/protocol-connector.js';
import { ConsoleCompanies } from '../pages/console-companies.js';
import { ConsoleShell } from '../pages/console-shell.js';
import { ConsoleTemplates } from '../pages/console-templates.js';
import { ConsoleTransactions } from '../pages/console-transactions.js';
import { ConsoleWebhooks } from '../pages/console-webhooks.js';

/** Browser state follows the relay within a few seconds, even on a busy machine. */
const POLL = { timeout: 10_000, interval: 100 };

const COMPANY = 'Kaveri Textiles FY27';
const OTHER_COMPANY = 'Godavari Mills';
const MACHINE = 'KAVERI-PC';
const OLD_BOOKS = { guid: 'guid-kaveri-old', name: 'Kaveri Textiles (old books)' };
const NEW_BOOKS = { guid: 'guid-kaveri-new', name: 'Kaveri Textiles 2027' };

const invoice = (voucherNumber: string, party: string, amount: number, date: string) => ({
  voucher_number: voucherNumber,
  voucher_type: 'Sales',
  party_ledger: party,
  date,
  ledger_entries: [
    { ledger_name: party, amount, is_debit: true, is_party: true },
    { ledger_name: 'Sales', amount, is_debit: false },
  ],
  transaction_id: `kaveri-${voucherNumber}`,
});

/** Whether keyboard focus is inside the open dialog (an expression: e2e code is typed without the DOM). */
function focusInDialog(page: Page): Promise<boolean> {
  return page.evaluate<boolean>(`document.activeElement !== null && document.activeElement.closest('dialog[open]') !== null`);
}

describe.skipIf(!browserAvailable())('console: support finds, explains and fixes', () => {
  let relay: ConsoleRelay;
  let browser: Browser;
  let receiver: WebhookCatcher;
  let connector: ProtocolConnector | undefined;
  let credential = '';
  let applicationId = '';
  let companyId = 0;
  let tenantId = '';

  const operator = <T>(method: string, url: string, status: number, body?: unknown) => call<T>(relay, method, url, status, { token: TEST_OPERATOR_TOKEN, payload: body }).then(({ body }) => body);
  const integrator = <T>(method: string, url: string, status: number, body?: unknown) => call<T>(relay, method, url, status, { token: credential, payload: body }).then(({ body }) => body);

  beforeAll(async () => {
    relay = await startConsoleRelay();
    browser = await launchChromium();
    receiver = await startWebhookCatcher({ statuses: [500, 200] });
    applicationId = (await operator<{ application: { id: string } }>('POST', '/admin/v1/applications', 201, { name: 'Kaveri Billing' })).application.id;
    credential = (await operator<{ credential: string }>('POST', `/admin/v1/applications/${applicationId}/keys`, 201, { environment: 'test', capabilities: [] })).credential;
    const customer = (await integrator<{ customer: { id: string; token: string } }>('POST', '/api/v1/customers', 200, { name: 'Kaveri Traders' })).customer;
    companyId = (await integrator<{ company_id: number }>('POST', '/api/v1/companies', 200, { name: COMPANY, customer_id: customer.id })).company_id;
    await integrator('POST', '/api/v1/companies', 200, { name: OTHER_COMPANY, customer_id: customer.id });
    connector = await ProtocolConnector.start({
      baseUrl: relay.baseUrl,
      customerToken: customer.token,
      machineName: MACHINE,
      books: { running: true, product: 'TallyPrime 5.1', open_companies: [OLD_BOOKS, NEW_BOOKS] },
      decide: (job) => ({ status: 'completed', books_voucher_guid: `guid-${job.job_id}`, books_master_id: '1', books_alter_id: '1' }),
    });
    await operator('POST', `/admin/v1/companies/${companyId}/pair`, 200, { connector_id: connector.connectorId, books_company_guid: OLD_BOOKS.guid });
    await integrator('POST', '/api/v1/webhooks', 200, { url: receiver.url(), events: ['company.linked'] });
    tenantId = (await operator<{ tenant: { id: string } }>('POST', '/admin/v1/tenants', 201, { name: 'Kaveri Messages', org_id: 4242 })).tenant.id;
  }, 60_000);
  afterAll(async () => {
    await connector?.close();
    await browser?.close();
    await relay?.close();
    await receiver?.close();
  });

  it('lands on Companies, finds a company by name, re-pairs it after a confirmation naming both, and shows why its writes wait', async (test) => {
    const { page, problems } = await openPage(browser, test);
    const shell = new ConsoleShell(page, relay.consoleUrl);
    const companies = new ConsoleCompanies(shell);
    const transactions = new ConsoleTransactions(shell);
    await shell.signInWithLink(TEST_OPERATOR_TOKEN);

    // Support lands on Companies, and finds the company by part of its name, any case.
    await shell.heading('Companies').waitFor();
    await companies.search('kaveri tex');
    await eventually('companies.table().getByRole(\'row\').count() toBe 2', async () => {
      expect(await companies.table().getByRole('row').count()).toBe(2);
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval }); // the header and one company
    const row = await companies.row(COMPANY).innerText();
    expect(row).toContain('Kaveri Traders');
    expect(row).toContain(OLD_BOOKS.name);
    expect(row).toContain(MACHINE);
    expect(row).toContain('Healthy');
    await companies.openCompany(COMPANY);

    // Re-pairing with another books company asks first, naming both; Escape answers no.
    const declined = await companies.pairElsewhere(MACHINE, NEW_BOOKS.name, false);
    expect(declined).toContain(`Pair ${COMPANY} with ${NEW_BOOKS.name}?`);
    expect(declined).toContain(OLD_BOOKS.name);
    const unchanged = await operator<{ company: { books_company_guid: string } }>('GET', `/admin/v1/companies/${companyId}`, 200);
    expect(unchanged.company.books_company_guid).toBe(OLD_BOOKS.guid);

    // The dialog keeps keyboard focus inside it, starting on Cancel.
    await page.getByRole('form', { name: 'Pair with the books' }).getByRole('button', { name: /Pair/ }).click();
    const dialog = page.getByRole('dialog', { name: `Pair ${COMPANY} with ${NEW_BOOKS.name}?` });
    await dialog.waitFor();
    expect(await page.evaluate<string | undefined>(`document.activeElement?.textContent ?? undefined`)).toBe('Cancel');
    for (let press = 0; press < 3; press += 1) {
      await page.keyboard.press('Tab');
      expect(await focusInDialog(page)).toBe(true);
    }
    await page.keyboard.press('Shift+Tab');
    expect(await focusInDialog(page)).toBe(true);
    await keepScreenshot(page, 'repair-confirmation-1280');
    await dialog.getByRole('button', { name: `Pair with ${NEW_BOOKS.name}` }).click();
    await page.getByText(`Paired with ${NEW_BOOKS.name}.`).waitFor();
    await eventually('companies.healthPanel().innerText() toContain NEW_BOOKS.name', async () => {
      expect(await companies.healthPanel().innerText()).toContain(NEW_BOOKS.name);
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    const moved = await operator<{ company: { books_company_guid: string } }>('GET', `/admin/v1/companies/${companyId}`, 200);
    expect(moved.company.books_company_guid).toBe(NEW_BOOKS.guid);

    // Two invoices go to the new books company.
    for (const voucher of [invoice('KT-101', 'Lakshmi Stores', 1180, '2027-04-02'), invoice('KT-102', 'Meenakshi Silks', 250.5, '2027-04-20')]) {
      const { transaction_id: jobId } = await integrator<{ transaction_id: string }>('POST', `/api/v1/invoices?company_id=${companyId}`, 200, voucher);
      await connector?.jobSettled(jobId);
    }

    // The connector goes away; the next invoice waits, and the console says why.
    await connector?.close();
    connector = undefined;
    // Its socket is closed at once; connector.offline is published only after a grace period.
    await eventually('the connector’s socket to be seen closed', async () => {
      const { company } = await operator<{ company: { connector_online: boolean } }>('GET', `/admin/v1/console/companies/${companyId}`, 200);
      return company.connector_online ? undefined : true;
    });
    await integrator('POST', `/api/v1/invoices?company_id=${companyId}`, 200, invoice('KT-103', 'Lakshmi Stores', 999, '2027-05-01'));
    await page.reload();
    await eventually('companies.whyTheyWait().innerText() toContain `The connector on "${MACHINE}" is offline`', async () => {
      expect(await companies.whyTheyWait().innerText()).toContain(`The connector on "${MACHINE}" is offline`);
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    expect(await companies.healthPanel().innerText()).toContain('1 queued');
    await keepScreenshot(page, 'company-waiting-1280');

    // In the list too: the queue count and the reason, found by name.
    await companies.open();
    await companies.search('KAVERI');
    await eventually('companies.row(COMPANY).innerText() toContain \'is offline\'', async () => {
      expect(await companies.row(COMPANY).innerText()).toContain('is offline');
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    expect(await companies.row(COMPANY).innerText()).toContain('1 queued');

    // Transactions searched by voucher number, party, amount and date show those in the list.
    await companies.openCompany(COMPANY);
    await companies.openTransactions();
    await transactions.search({ party: 'lakshmi' });
    await eventually('transactions.table().getByRole(\'row\').count() toBe 3', async () => {
      expect(await transactions.table().getByRole('row').count()).toBe(3);
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    await transactions.search({ amount: '250.50' });
    await eventually('transactions.table().innerText() toContain \'KT-102\'', async () => {
      expect(await transactions.table().innerText()).toContain('KT-102');
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    const found = await transactions.row('kaveri-KT-102').innerText();
    for (const shown of ['KT-102', 'Meenakshi Silks', '250.50', '2027-04-20', COMPANY, 'completed']) expect(found).toContain(shown);
    expect(await transactions.table().innerText()).not.toContain('KT-101');
    await transactions.search({ voucherNumber: 'kt-10', dateFrom: '2027-04-15', dateTo: '2027-05-31' });
    await eventually('transactions.table().getByRole(\'row\').count() toBe 3', async () => {
      expect(await transactions.table().getByRole('row').count()).toBe(3);
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    expect(await transactions.table().innerText()).not.toContain('KT-101');

    // The sent one shows the books company it went to and "XML sent"; the waiting one is "to be sent".
    await transactions.openTransaction('kaveri-KT-102');
    expect(await shell.panel('Summary').innerText()).toContain(NEW_BOOKS.name);
    await transactions.xmlPanel(true).waitFor();
    await transactions.backToList();
    await transactions.search({ voucherNumber: 'KT-103' });
    await transactions.openTransaction('kaveri-KT-103');
    expect(await transactions.waitingNotice().innerText()).toContain('is offline');
    await transactions.xmlPanel(false).waitFor();
    expect(await transactions.xmlPanel(true).count()).toBe(0);
    expect(await transactions.xmlPanel(false).innerText()).toContain('Not sent yet');
    await keepScreenshot(page, 'transaction-waiting-1280');

    expect(problems.pageErrors).toEqual([]);
    expect(problems.consoleErrors).toEqual([]);
    expect(problems.failedResponses).toEqual([]);
  }, 120_000);

  it('inspects a webhook attempt’s payload and response, and disables, enables and deletes the endpoint', async (test) => {
    const { page, problems } = await openPage(browser, test);
    const shell = new ConsoleShell(page, relay.consoleUrl);
    const webhooks = new ConsoleWebhooks(shell);
    await shell.signInWithLink(TEST_OPERATOR_TOKEN);
    await shell.visit(`#/applications/${applicationId}/webhooks`);
    await shell.heading('Webhooks').waitFor();

    const deliveryId = await webhooks.sendTest(receiver.url());
    expect(deliveryId).toMatch(/^dlv_/);
    await eventually('the receiver to answer the test event', async () => (receiver.received.some((r) => r.type === 'webhook.test') ? true : undefined));
    // The relay records the attempt just after the receiver answers: reload until the history shows it.
    await eventually('the page, reloaded, toContain \'HTTP 500\'', async () => {
      expect(await (async () => {
        await page.reload();
        return webhooks.deliveries(receiver.url()).innerText();
      })()).toContain('HTTP 500');
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    const detail = await webhooks.inspect(webhooks.deliveryRows(receiver.url(), 'webhook.test').first());
    expect(JSON.parse(await webhooks.payload(detail).innerText())).toMatchObject({ type: 'webhook.test', data: { endpoint_id: expect.stringMatching(/^wh_/) } });
    const attempt = await webhooks.attempt(detail, 1).innerText();
    expect(attempt).toContain('HTTP 500');
    expect(attempt).toMatch(/in \d+ ms/);
    expect(await webhooks.responseBody(detail, 1).innerText()).toBe('receiver says no');
    // Said once: the status is shown, not repeated as "The receiver answered 500" as well.
    expect(attempt).not.toContain('answered 500');
    await keepScreenshot(page, 'webhook-attempt-1280');

    await webhooks.disable(receiver.url());
    expect((await operator<{ webhooks: { enabled: boolean }[] }>('GET', `/admin/v1/console/webhooks?owner_kind=application&owner_id=${applicationId}`, 200)).webhooks[0]?.enabled).toBe(false);
    await webhooks.enable(receiver.url());
    expect((await operator<{ webhooks: { enabled: boolean }[] }>('GET', `/admin/v1/console/webhooks?owner_kind=application&owner_id=${applicationId}`, 200)).webhooks[0]?.enabled).toBe(true);
    const question = await webhooks.delete(receiver.url());
    expect(question).toContain(receiver.url());
    await page.getByText('No webhook endpoints.').waitFor();
    expect((await operator<{ webhooks: unknown[] }>('GET', `/admin/v1/console/webhooks?owner_kind=application&owner_id=${applicationId}`, 200)).webhooks).toEqual([]);

    expect(problems.pageErrors).toEqual([]);
    expect(problems.consoleErrors).toEqual([]);
    expect(problems.failedResponses).toEqual([]);
  }, 90_000);

  it('fits the template preview’s sample data to the template and warns about a variable the data lacks', async (test) => {
    const { template } = await operator<{ template: { id: string } }>('POST', `/admin/v1/tenants/${tenantId}/templates`, 201, {
      event_key: 'order_shipped',
      channel: 'email',
      subject: 'Order {{order.number}} shipped',
      html: '<p>Dear {{customer.name}},</p><ul>{{#each items}}<li>{{name}} × {{qty}}</li>{{/each}}</ul>',
    });
    const { page, problems } = await openPage(browser, test);
    const shell = new ConsoleShell(page, relay.consoleUrl);
    const templates = new ConsoleTemplates(shell);
    await shell.signInWithLink(TEST_OPERATOR_TOKEN);
    await shell.visit(`#/tenants/${tenantId}/templates/${template.id}`);
    await shell.heading('Template order_shipped').waitFor();

    // The sample data fits the template: an order number, a customer and two items.
    await eventually('templates.sampleData() toContain \'"items"\'', async () => {
      expect(await templates.sampleData()).toContain('"items"');
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    const sample = JSON.parse(await templates.sampleData()) as { order: { number: string }; items: { name: string; qty: number }[] };
    expect(sample.items).toHaveLength(2);
    await eventually('templates.previewSubject().innerText() toBe `Order ${sample.order.number} shipped`', async () => {
      expect(await templates.previewSubject().innerText()).toBe(`Order ${sample.order.number} shipped`);
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    await eventually('templates.previewBody().innerText() toContain `${sample.items[0]?.name} × ${sample.items[0]?.qty}`', async () => {
      expect(await templates.previewBody().innerText()).toContain(`${sample.items[0]?.name} × ${sample.items[0]?.qty}`);
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    expect(await templates.missingVariables().count()).toBe(0);

    // Data without the customer and with an item lacking its quantity: the preview names both.
    await templates.setSampleData(JSON.stringify({ order: { number: 'SO-9' }, items: [{ name: 'Silk saree', qty: 1 }, { name: 'Cotton dhoti' }] }));
    await eventually('templates.missingVariables().innerText() toContain \'customer.name, items[].qty\'', async () => {
      expect(await templates.missingVariables().innerText()).toContain('customer.name, items[].qty');
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    await keepScreenshot(page, 'template-missing-variables-1280');

    // A new variable typed into the draft: "Fit" adds it to the sample data and the warning goes.
    await templates.setHtml('<p>Dear {{customer.name}}, {{tracking_url}}</p>');
    await eventually('templates.missingVariables().innerText() toContain \'tracking_url\'', async () => {
      expect(await templates.missingVariables().innerText()).toContain('tracking_url');
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    await templates.fitSampleData();
    await eventually('templates.sampleData() toContain \'"tracking_url"\'', async () => {
      expect(await templates.sampleData()).toContain('"tracking_url"');
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    await eventually('templates.missingVariables().count() toBe 0', async () => {
      expect(await templates.missingVariables().count()).toBe(0);
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });

    expect(problems.pageErrors).toEqual([]);
    expect(problems.consoleErrors).toEqual([]);
    expect(problems.failedResponses).toEqual([]);
  }, 90_000);
});
