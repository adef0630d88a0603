// What the end user is told, in Chromium: a failed transaction's page, a waiting transaction's page and
// the company page show user_message and fix_by (the sentences the bridge API gives integrators), so an
// operator on the phone with a shop owner reads them the same words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, launchChromium, openPage } from '../support/browser-session.js';
import { call, eventually, TEST_OPERATOR_TOKEN } from '@ledgerwire/test-kit';
import { startConsoleRelay, type ConsoleRelay } from '../support/console-relay.js';
import { startPairedCompany } from '../support/paired-company.js';
import type { ProtocolConnector } from '../support/protocol-connector.js';
import { ConsoleShell } from '../pages/console-shell.js';

const POLL = { timeout: 10_000, interval: 100 };
const BOOKS = { guid: 'guid-kaveri-books', name: 'Kaveri Traders 2027' };
const OFFLINE_SENTENCE = 'The Ledgerwire connector on the PC "KAVERI-PC" is not connected';

describe.skipIf(!browserAvailable())('console: what the end user is told', () => {
  let relay: ConsoleRelay;
  let browser: Browser;
  let connector: ProtocolConnector | undefined;
  let credential = '';
  let companyId = 0;

  const operator = <T>(method: string, url: string, status: number, body?: unknown) => call<T>(relay, method, url, status, { token: TEST_OPERATOR_TOKEN, payload: body }).then(({ body }) => body);
  const integrator = <T>(method: string, url: string, status: number, body?: unknown) => call<T>(relay, method, url, status, { token: credential, payload: body }).then(({ body }) => body);
  const invoice = (voucherNumber: string, ledger: string) =>
    integrator<{ transaction_id: string }>('POST', `/api/v1/invoices?company_id=${companyId}`, 200, {
      voucher_number: voucherNumber,
      voucher_type: 'Sales',
      party_ledger: 'Tapti Stores',
      date: '2027-04-05',
      ledger_entries: [
        { ledger_name: 'Tapti Stores', amount: 500, is_debit: true, is_party: true },
        { ledger_name: ledger, amount: 500, is_debit: false },
      ],
    });

  beforeAll(async () => {
    relay = await startConsoleRelay();
    browser = await launchChromium();
    ({ credential, companyId, connector } = await startPairedCompany(relay, {
      name: 'Kaveri',
      machineName: 'KAVERI-PC',
      books: BOOKS,
      // Every write fails the way TallyPrime answers a ledger it does not have.
      decide: () => ({ status: 'failed', error_code: 'MASTER_NOT_FOUND', error_label: 'Master not found', error_message: "Ledger 'Freight Income' does not exist!" }),
    }));
  }, 60_000);
  afterAll(async () => {
    await connector?.close();
    await browser?.close();
    await relay?.close();
  });

  it('a failed transaction, then a waiting one and the company page say what the end user is told and who fixes it', async (test) => {
    const { transaction_id: failedId } = await invoice('KT-1', 'Freight Income');
    await connector?.jobSettled(failedId);

    const { page, problems } = await openPage(browser, test);
    const shell = new ConsoleShell(page, relay.consoleUrl);
    await shell.signInWithLink(TEST_OPERATOR_TOKEN);
    await shell.visit(`#/transactions/${encodeURIComponent(failedId)}`);
    const failedAdvice = page.getByRole('alert', { name: 'Why it failed' }).getByLabel('For the end user');
    await eventually('failedAdvice.innerText() toContain \'TallyPrime has no ledger "Freight Income" in this company.\'', async () => {
      expect(await failedAdvice.innerText()).toContain('TallyPrime has no ledger "Freight Income" in this company.');
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    expect(await failedAdvice.innerText()).toContain('Fixed by the end user, at TallyPrime or the PC it runs on.');

    // The connector goes away: the next write waits, and the end user is told to bring the PC back.
    await connector?.close();
    connector = undefined;
    const { transaction_id: waitingId } = await invoice('KT-2', 'Sales');
    await eventually('(await operator<{ transaction: { waiting_reason: { code: string } | null } }>(\'GET\', `/admin/v1/console/transactions/${waitingId}`, 200))...', async () => {
      expect(await (await operator<{ transaction: { waiting_reason: { code: string } | null } }>('GET', `/admin/v1/console/transactions/${waitingId}`, 200)).transaction.waiting_reason?.code).toBe('connector_offline');
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    await shell.visit(`#/transactions/${encodeURIComponent(waitingId)}`);
    const waitingAdvice = page.getByRole('status', { name: 'Why it waits' }).getByLabel('For the end user');
    await eventually('waitingAdvice.innerText() toContain OFFLINE_SENTENCE', async () => {
      expect(await waitingAdvice.innerText()).toContain(OFFLINE_SENTENCE);
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    expect(await waitingAdvice.innerText()).toContain('Fixed by the end user');

    // The company page says it once: beside the waiting writes, not again under the health badge.
    await shell.visit(`#/companies/${companyId}`);
    await eventually('page.getByLabel(\'For the end user\').count() toBe 1', async () => {
      expect(await page.getByLabel('For the end user').count()).toBe(1);
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    expect(await page.getByRole('status', { name: 'Why the writes wait' }).getByLabel('For the end user').innerText()).toContain(OFFLINE_SENTENCE);
    expect(problems.pageErrors).toEqual([]);
    expect(problems.consoleErrors).toEqual([]);
  }, 60_000);
});
