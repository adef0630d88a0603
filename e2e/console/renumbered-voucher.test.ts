// A voucher the books renumbered (automatic numbering), in Chromium: once the sync has read it back, the
// console's transactions list and the transaction's page show the books' number beside the one sent,
// and a search by the books' number finds it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, launchChromium, openPage } from '../support/browser-session.js';
import { call, eventually, TEST_OPERATOR_TOKEN } from '@ledgerwire/test-kit';
import { startConsoleRelay, type ConsoleRelay } from '../support/console-relay.js';
import { startPairedCompany } from '../support/paired-company.js';
import type { ProtocolConnector } from '../support/protocol-connector.js';
import { ConsoleShell } from '../pages/console-shell.js';
import { ConsoleTransactions } from '../pages/console-transactions.js';

const POLL = { timeout: 10_000, interval: 100 };
const BOOKS = { guid: 'guid-narmada-books', name: 'Narmada Traders 2027' };

describe.skipIf(!browserAvailable())('console: a renumbered voucher', () => {
  let relay: ConsoleRelay;
  let browser: Browser;
  let connector: ProtocolConnector | undefined;
  let credential = '';
  let companyId = 0;

  const integrator = <T>(method: string, url: string, status: number, body?: unknown) => call<T>(relay, method, url, status, { token: credential, payload: body }).then(({ body }) => body);

  beforeAll(async () => {
    relay = await startConsoleRelay();
    browser = await launchChromium();
    ({ credential, companyId, connector } = await startPairedCompany(relay, {
      name: 'Narmada',
      machineName: 'NARMADA-PC',
      books: BOOKS,
      decide: (job) => ({ status: 'completed', books_voucher_guid: `guid-${job.job_id}`, books_master_id: '31', books_alter_id: '1' }),
    }));
  }, 60_000);
  afterAll(async () => {
    await connector?.close();
    await browser?.close();
    await relay?.close();
  });

  it('shows "NT-7 → 31 in the books" in the list and on the transaction, and finds it by 31', async (test) => {
    const { transaction_id: jobId } = await integrator<{ transaction_id: string }>('POST', `/api/v1/invoices?company_id=${companyId}`, 200, {
      voucher_number: 'NT-7',
      voucher_type: 'Sales',
      party_ledger: 'Tapti Stores',
      date: '2027-04-05',
      ledger_entries: [
        { ledger_name: 'Tapti Stores', amount: 500, is_debit: true, is_party: true },
        { ledger_name: 'Sales', amount: 500, is_debit: false },
      ],
    });
    await connector?.jobSettled(jobId);
    // The sync reads the voucher back with the number the books gave it.
    await connector?.syncVouchers(companyId, [{
      guid: `guid-${jobId}`, alter_id: '2', master_id: '31', voucher_type: 'Sales', reserved_name: 'Sales', voucher_number: '31',
      voucher_date: '20270405', party_ledger: 'Tapti Stores', ledger_entries: [{ ledger: 'Tapti Stores', amount: '-500.00' }],
    }]);

    const { page, problems } = await openPage(browser, test);
    const shell = new ConsoleShell(page, relay.consoleUrl);
    const transactions = new ConsoleTransactions(shell);
    await shell.signInWithLink(TEST_OPERATOR_TOKEN);
    await shell.goToSection('Transactions');
    await transactions.search({ voucherNumber: '31' });
    await eventually('transactions.table().getByRole(\'row\').count() toBe 2', async () => {
      expect(await transactions.table().getByRole('row').count()).toBe(2);
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval }); // the header and the invoice
    const row = await transactions.row(jobId).innerText();
    expect(row).toContain('NT-7');
    expect(row).toContain('→ 31 in the books');
    await transactions.openTransaction(jobId);
    await eventually('shell.panel(\'Summary\').innerText() toContain \'NT-7 → 31 in the books\'', async () => {
      expect(await shell.panel('Summary').innerText()).toContain('NT-7 → 31 in the books');
      return true;
    }, { timeoutMs: POLL.timeout, intervalMs: POLL.interval });
    expect(problems.pageErrors).toEqual([]);
    expect(problems.consoleErrors).toEqual([]);
  });
});
