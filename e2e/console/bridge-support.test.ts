// Support's bridge tasks in the console, against a relay with a connector built from the shared
// protocol: rotating a customer's token (the old token no longer enrols, the enrolled connector keeps
// booking), attaching and detaching a company (the integrator's webhook hears both), and
// disconnecting a paired company, after which a voucher posted through the API waits in the queue
// and is not handed to the still-connected connector.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, keepScreenshot, launchChromium, openPage } from '../support/browser-session.js';
import { call, eventually, startWebhookCatcher, TEST_OPERATOR_TOKEN, type WebhookCatcher } from '@ledgerwire/test-kit';
import { startConsoleRelay, type ConsoleRelay } from '../support/console-relay.js';
import { ProtocolConnector } from '../support/protocol-connector.js';
import { ConsoleShell } from '../pages/console-shell.js';
import { ConsoleBridgeSupport } from '../pages/console-bridge-support.js';

/** Browser state follows the relay within a few seconds, even on a busy machine. */
const POLL = { timeout: 10_000, interval: 100 };

const APPLICATION = 'Sharma Billing';
const CUSTOMER = 'Sharma Traders';
const PAIRED_COMPANY = 'Sharma Traders FY26';
const LOOSE_COMPANY = 'Sharma Exports';
const BOOKS_COMPANY = { guid: 'guid-sharma-books', name: 'Sharma Traders (Books)' };

const journal = (voucherNumber: string) => ({
  voucher_number: voucherNumber,
  voucher_type: 'Journal',
  party_ledger: 'Cash',
  date: '2026-04-01',
  ledger_entries: [
    { ledger_name: 'Cash', amount: 500, is_debit: true },
    { ledger_name: 'Sales', amount: 500, is_debit: false },
  ],
  transaction_id: `support-${voucherNumber}`,
});

type Transaction = { transaction: { status: string } };

describe.skipIf(!browserAvailable())('console: bridge support tasks', () => {
  let relay: ConsoleRelay;
  let browser: Browser;
  let receiver: WebhookCatcher;
  let connector: ProtocolConnector | undefined;
  let applicationId = '';
  let credential = '';
  let customer: { id: string; token: string };
  let pairedCompanyId = 0;
  let looseCompanyId = 0;

  const operator = <T>(method: string, url: string, status: number, body?: unknown) => call<T>(relay, method, url, status, { token: TEST_OPERATOR_TOKEN, payload: body }).then(({ body }) => body);
  const integrator = <T>(method: string, url: string, status: number, body?: unknown) => call<T>(relay, method, url, status, { token: credential, payload: body }).then(({ body }) => body);
  const enrol = (token: string) =>
    fetch(`${relay.baseUrl}/api/v1/connectors/enroll`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, machine_name: 'SECOND-PC', version: '1.4.2' }),
    });

  beforeAll(async () => {
    relay = await startConsoleRelay();
    browser = await launchChromium();
    receiver = await startWebhookCatcher({ statuses: [200] });
    // The integrator's setup, through the APIs: an application and key, a customer, two companies
    // (one attached to the customer), a webhook endpoint for the link events.
    applicationId = (await operator<{ application: { id: string } }>('POST', '/admin/v1/applications', 201, { name: APPLICATION })).application.id;
    credential = (await operator<{ credential: string }>('POST', `/admin/v1/applications/${applicationId}/keys`, 201, { environment: 'test', capabilities: [] })).credential;
    customer = (await integrator<{ customer: { id: string; token: string } }>('POST', '/api/v1/customers', 200, { name: CUSTOMER })).customer;
    pairedCompanyId = (await integrator<{ company_id: number }>('POST', '/api/v1/companies', 200, { name: PAIRED_COMPANY, customer_id: customer.id })).company_id;
    looseCompanyId = (await integrator<{ company_id: number }>('POST', '/api/v1/companies', 200, { name: LOOSE_COMPANY })).company_id;
    await integrator('POST', '/api/v1/webhooks', 200, { url: receiver.url(), events: ['company.linked', 'company.unlinked'] });
    // The end user's connector enrols with the customer's token; the company is paired with its books.
    connector = await ProtocolConnector.start({
      baseUrl: relay.baseUrl,
      customerToken: customer.token,
      machineName: 'SHARMA-PC',
      books: { running: true, product: 'TallyPrime 5.1', open_companies: [BOOKS_COMPANY] },
      decide: (job) => ({ status: 'completed', books_voucher_guid: `guid-${job.job_id}`, books_master_id: '1', books_alter_id: '1' }),
    });
    await operator('POST', `/admin/v1/companies/${pairedCompanyId}/pair`, 200, { connector_id: connector.connectorId, books_company_guid: BOOKS_COMPANY.guid });
  }, 60_000);
  afterAll(async () => {
    await connector?.close();
    await browser?.close();
    await relay?.close();
    await receiver?.close();
  });

  it('rotates a customer token: the old one enrols no more, the enrolled connector keeps booking', async (test) => {
    const { page, problems } = await openPage(browser, test);
    const shell = new ConsoleShell(page, relay.consoleUrl);
    const support = new ConsoleBridgeSupport(shell);
    await shell.signInWithLink(TEST_OPERATOR_TOKEN);
    await support.openApplication(applicationId, APPLICATION);

    const rotated = await support.rotateCustomerToken(CUSTOMER);
    expect(rotated.token).toMatch(/^lwct_/);
    expect(rotated.token).not.toBe(customer.token);
    expect(rotated.explanation).toContain('connectors already enrolled keep working');
    expect(await page.getByRole('status', { name: 'New enrolment token' }).count()).toBe(0); // shown once, then gone

    const refused = await enrol(customer.token);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('enrolment_token_invalid');

    const { transaction_id: jobId } = await integrator<{ transaction_id: string }>('POST', `/api/v1/journals?company_id=${pairedCompanyId}`, 200, journal('R-1'));
    await connector?.jobSettled(jobId);
    expect((await integrator<Transaction>('GET', `/api/v1/transactions/${jobId}`, 200)).transaction.status).toBe('completed');
    expect((await enrol(rotated.token)).status).toBe(200);

    expect(problems.pageErrors).toEqual([]);
    expect(problems.consoleErrors).toEqual([]);
    expect(problems.failedResponses).toEqual([]);
  }, 90_000);

  it('attaches a company to a customer and detaches it; the integrator hears both', async (test) => {
    const { page, problems } = await openPage(browser, test);
    const shell = new ConsoleShell(page, relay.consoleUrl);
    const support = new ConsoleBridgeSupport(shell);
    await shell.signInWithLink(TEST_OPERATOR_TOKEN);
    await support.openCompany(looseCompanyId, LOOSE_COMPANY);

    await support.attachToCustomer(CUSTOMER);
    await eventually('support.customerPanel().innerText() toContain `Attached to ${CUSTOMER}`', async () => {
      expect(await support.customerPanel().innerText()).toContain(`Attached to ${CUSTOMER}`);
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    // The customer panel says so once the attach returns; the health panel once the company is read again.
    await eventually('support.healthPanel().innerText() toContain customer.id', async () => {
      expect(await support.healthPanel().innerText()).toContain(customer.id);
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    const attached = await operator<{ company: { customer_id: string | null } }>('GET', `/admin/v1/companies/${looseCompanyId}`, 200);
    expect(attached.company.customer_id).toBe(customer.id);

    await support.detachFromCustomer(CUSTOMER);
    await eventually('support.healthPanel().innerText() toContain \'Not attached to a customer\'', async () => {
      expect(await support.healthPanel().innerText()).toContain('Not attached to a customer');
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    const detached = await operator<{ company: { customer_id: string | null } }>('GET', `/admin/v1/companies/${looseCompanyId}`, 200);
    expect(detached.company.customer_id).toBeNull();

    await eventually('both link webhooks', async () => (receiver.received.length >= 2 ? true : undefined));
    expect(receiver.received.map((r) => r.type)).toEqual(['company.linked', 'company.unlinked']);
    expect(problems.pageErrors).toEqual([]);
    expect(problems.consoleErrors).toEqual([]);
    expect(problems.failedResponses).toEqual([]);
  }, 90_000);

  it('disconnect in the console stops delivery: the voucher stays queued and the connector gets no job', async (test) => {
    const { page, problems } = await openPage(browser, test);
    const shell = new ConsoleShell(page, relay.consoleUrl);
    const support = new ConsoleBridgeSupport(shell);
    await shell.signInWithLink(TEST_OPERATOR_TOKEN);
    await support.openCompany(pairedCompanyId, PAIRED_COMPANY);
    await eventually('support.healthPanel().innerText() toContain \'Healthy\'', async () => {
      expect(await support.healthPanel().innerText()).toContain('Healthy');
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });

    const question = await support.disconnect();
    expect(question).toContain(`Disconnect ${PAIRED_COMPANY} from ${BOOKS_COMPANY.name}?`);
    await eventually('support.healthPanel().innerText() toContain \'Not paired\'', async () => {
      expect(await support.healthPanel().innerText()).toContain('Not paired');
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    await keepScreenshot(page, 'company-disconnected-1280');
    const health = await integrator<{ paired: boolean; connector: { online: boolean } }>('GET', `/api/v1/companies/${pairedCompanyId}/health`, 200);
    expect(health.paired).toBe(false);

    const { transaction_id: jobId } = await integrator<{ transaction_id: string }>('POST', `/api/v1/journals?company_id=${pairedCompanyId}`, 200, journal('D-1'));
    // A whole claim pass for every session here, then a ping answered after anything it sent:
    // a job.assign for this voucher would have reached the connector by now.
    await relay.app.gateway.sessions.claimPass();
    await connector?.roundTrip();
    expect(connector?.assignedJobIds()).not.toContain(jobId);
    expect((await integrator<Transaction>('GET', `/api/v1/transactions/${jobId}`, 200)).transaction.status).toBe('queued');

    // Held back, not dropped: paired again, the waiting voucher is delivered and booked.
    await operator('POST', `/admin/v1/companies/${pairedCompanyId}/pair`, 200, { connector_id: connector?.connectorId, books_company_guid: BOOKS_COMPANY.guid });
    await relay.app.gateway.sessions.claimPass();
    await connector?.jobSettled(jobId);
    expect((await integrator<Transaction>('GET', `/api/v1/transactions/${jobId}`, 200)).transaction.status).toBe('completed');

    expect(problems.pageErrors).toEqual([]);
    expect(problems.consoleErrors).toEqual([]);
    expect(problems.failedResponses).toEqual([]);
  }, 90_000);
});
