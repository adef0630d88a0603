// The whole path as an integrator meets it: a real relay (buildApp on port 0), the emulator over HTTP,
// the connector in-process. Every voucher kind posted through the API ends completed with its GUID and
// is in the books exactly once; a missing ledger fails with MASTER_NOT_FOUND in words a person reads;
// books stopped, or a company not open in them, make jobs wait and then run; a relay that was away gets
// the outcome re-reported.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '@ledgerwire/test-kit';
import type { ConnectorHandle } from '../src/index.js';
import { enrolAndPair, startConnector, transactionSettled } from './helpers/connected-connector.js';
import { startTestEmulator, tempDataDir, type TestEmulator } from './helpers/test-emulator.js';
import { startCustomerRelay, type CustomerRelay } from './helpers/customer-relay.js';
import { documentsByEndpoint } from './helpers/voucher-documents.js';

let relay: CustomerRelay;
let books: TestEmulator;
let connector: ConnectorHandle | undefined;

beforeEach(async () => {
  relay = await startCustomerRelay({ env: { CONNECTOR_CLAIM_INTERVAL_MS: '200', CONNECTOR_HEARTBEAT_MS: '1000' } });
  books = await startTestEmulator();
});
afterEach(async () => {
  await connector?.stop();
  connector = undefined;
  await relay.close();
  await books.close();
});

/** The transaction ends completed, and its voucher is in the books exactly once. */
async function completedAndBookedOnce(jobId: string, companyId: number, companyGuid: string): Promise<void> {
  const transaction = await transactionSettled(relay, jobId, companyId);
  expect(transaction.status).toBe('completed');
  expect((await books.vouchers(companyGuid)).filter((v) => v.guid === transaction.books_voucher_guid)).toHaveLength(1);
}

describe('full flow: API → relay → connector → books', () => {
  it('leaves the voucher booked once and the transaction completed when the connector dies between import and report', async () => {
    const dataDir = tempDataDir();
    connector = await startConnector(books, dataDir);
    const company = await enrolAndPair(connector, relay, books);
    const companyId = relay.companyIds[0] as number;
    // The books apply the import, cut the answer, then hang: the connector cannot look again before it dies.
    await books.control('POST', '/faults', { kind: 'hang-after-import' });
    const acceptance = await relay.api('POST', `/api/v1/journals?company_id=${companyId}`, documentsByEndpoint('X1').journals);
    await eventually('the books to import the voucher', async () => (await books.vouchers(company.guid)).some((v) => v.voucherNumber === 'JV-X1' || v.remoteId === acceptance.transaction_id));
    await eventually('the connector to hold the job with its outcome unknown', () => connector?.status().queue.importing === 1);
    await connector.stop();
    expect((await relay.api('GET', `/api/v1/transactions/${acceptance.transaction_id}?company_id=${companyId}`)).transaction.status).not.toBe('completed');
    await books.control('POST', '/faults/clear');
    connector = await startConnector(books, dataDir);
    const transaction = await transactionSettled(relay, acceptance.transaction_id, companyId);
    expect(transaction.status).toBe('completed');
    const same = (await books.vouchers(company.guid)).filter((v) => v.guid === transaction.books_voucher_guid);
    expect(same).toHaveLength(1);
    expect((await books.vouchers(company.guid)).filter((v) => v.narration === same[0]?.narration)).toHaveLength(1);
  });

  it('keeps outcomes while the relay is away and re-reports them when it is back', async () => {
    connector = await startConnector(books);
    const company = await enrolAndPair(connector, relay, books);
    const companyId = relay.companyIds[0] as number;
    // The books hold the import (as behind a TallyPrime dialog) while the relay goes away.
    await books.control('POST', '/faults', { kind: 'stall-next' });
    const acceptance = await relay.api('POST', `/api/v1/journals?company_id=${companyId}`, documentsByEndpoint('R1').journals);
    await eventually('the import to be under way', () => connector?.status().queue.importing === 1);
    await relay.stop();
    await eventually('the connector to notice the relay is gone', () => connector?.status().relay.state !== 'online');
    await books.control('POST', '/faults/clear');
    await eventually('the outcome to wait in the outbox', () => connector?.status().queue.unreported === 1);
    expect(connector.status().relay.description).toMatch(/kept here and sent when it is back/);
    await relay.start();
    await completedAndBookedOnce(acceptance.transaction_id, companyId, company.guid);
    await eventually('the outbox to empty', () => connector?.status().queue.unreported === 0);
  });

  it('books every voucher kind exactly once and reports its GUID', async () => {
    connector = await startConnector(books);
    const company = await enrolAndPair(connector, relay, books);
    const companyId = relay.companyIds[0] as number;
    const before = (await books.vouchers(company.guid)).length;
    const accepted: [string, string][] = [];
    for (const [endpoint, document] of Object.entries(documentsByEndpoint('K1'))) {
      const acceptance = await relay.api('POST', `/api/v1/${endpoint}?company_id=${companyId}`, document);
      accepted.push([endpoint, acceptance.transaction_id]);
    }
    for (const [endpoint, jobId] of accepted) {
      const transaction = await transactionSettled(relay, jobId, companyId);
      expect({ endpoint, status: transaction.status, error: transaction.error_message }).toEqual({ endpoint, status: 'completed', error: null });
      const inBooks = (await books.vouchers(company.guid)).filter((v) => v.guid === transaction.books_voucher_guid);
      expect(inBooks, endpoint).toHaveLength(1);
    }
    expect((await books.vouchers(company.guid)).length - before).toBe(accepted.length);
  });

  it('fails a voucher naming a missing ledger with MASTER_NOT_FOUND and a readable message', async () => {
    connector = await startConnector(books);
    await enrolAndPair(connector, relay, books);
    const companyId = relay.companyIds[0] as number;
    const document = documentsByEndpoint('M1').journals as Record<string, unknown>;
    const acceptance = await relay.api('POST', `/api/v1/journals?company_id=${companyId}`, {
      ...document,
      ledger_entries: [
        { ledger_name: 'Travel Expenses', amount: 75, is_debit: true },
        { ledger_name: 'Freight & Cartage', amount: 75, is_debit: false },
      ],
    });
    const transaction = await transactionSettled(relay, acceptance.transaction_id, companyId);
    expect(transaction).toMatchObject({ status: 'failed', error_code: 'MASTER_NOT_FOUND', books_voucher_guid: null });
    expect(transaction.error_message).toMatch(/ledger "Travel Expenses" does not exist/i);
    expect(transaction.error_message).not.toMatch(/[<>]|LINEERROR|RESPONSE/);
  });

  it('reports a paired company that is not open, to the person and to the relay', async () => {
    connector = await startConnector(books);
    const company = await enrolAndPair(connector, relay, books);
    const companyId = relay.companyIds[0] as number;
    await books.control('POST', `/companies/${encodeURIComponent(company.guid)}/close`);
    await eventually('the connector to see the company closed', () => connector?.status().pairings[0]?.open === false);
    expect(connector.status().pairings[0]?.description).toMatch(/is not open in TallyPrime/);
    await eventually('the relay to hear it', async () => (await relay.api('GET', `/api/v1/companies/${companyId}/health`)).books.company_open === false);
    await books.control('POST', `/companies/${encodeURIComponent(company.guid)}/open`);
    await eventually('the company to be open again', () => connector?.status().pairings[0]?.open === true);
  });

  it("lets a company's jobs wait while it is not open in the books, runs the others, then runs them", async () => {
    await relay.close();
    relay = await startCustomerRelay({ companies: 2, env: { CONNECTOR_CLAIM_INTERVAL_MS: '200', CONNECTOR_HEARTBEAT_MS: '1000' } });
    connector = await startConnector(books);
    const [companyId, otherId] = relay.companyIds as [number, number];
    const company = await enrolAndPair(connector, relay, books, companyId);
    const other = (await books.companies())[1] as { guid: string; name: string };
    await connector.service.pair(otherId, other.name);
    await books.control('POST', `/companies/${encodeURIComponent(company.guid)}/close`);
    await eventually('the relay to hear the company closed', async () => (await relay.api('GET', `/api/v1/companies/${companyId}/health`)).books.company_open === false);

    const waiting = await relay.api('POST', `/api/v1/journals?company_id=${companyId}`, documentsByEndpoint('C1').journals);
    // Written after it, a job of the open company runs: the claim that handed it out passed the closed one over.
    const passing = await relay.api('POST', `/api/v1/journals?company_id=${otherId}`, {
      voucher_number: 'JV-C2',
      voucher_type: 'Journal',
      party_ledger: 'Office Rent',
      date: '2026-05-15',
      ledger_entries: [
        { ledger_name: 'Office Rent', amount: 40, is_debit: true },
        { ledger_name: 'ICICI Bank', amount: 40, is_debit: false },
      ],
    });
    expect((await transactionSettled(relay, passing.transaction_id, otherId)).status).toBe('completed');
    expect((await relay.api('GET', `/api/v1/transactions/${waiting.transaction_id}?company_id=${companyId}`)).transaction.status).toBe('queued');
    expect(connector.status().pairings.find((p) => p.companyId === companyId)?.description).toMatch(/is not open in TallyPrime/);

    await books.control('POST', `/companies/${encodeURIComponent(company.guid)}/open`);
    await completedAndBookedOnce(waiting.transaction_id, companyId, company.guid);
  });

  it('holds jobs it was handed when their company closes before the import, and runs them once it is open', async () => {
    connector = await startConnector(books);
    const company = await enrolAndPair(connector, relay, books);
    const companyId = relay.companyIds[0] as number;
    // The books hold the first import (a dialog) while the company is closed under it.
    await books.control('POST', '/faults', { kind: 'stall-next' });
    const first = await relay.api('POST', `/api/v1/journals?company_id=${companyId}`, documentsByEndpoint('H1').journals);
    await eventually('the first import to be under way', () => connector?.status().queue.importing === 1);
    await books.control('POST', `/companies/${encodeURIComponent(company.guid)}/close`);
    await books.control('POST', '/faults/clear');
    await eventually('the connector to hold the job the books refused', () => connector?.status().queue.waiting === 1);
    expect((await relay.api('GET', `/api/v1/transactions/${first.transaction_id}?company_id=${companyId}`)).transaction.status).toBe('processing');
    expect((await books.vouchers(company.guid)).some((v) => v.remoteId === first.transaction_id)).toBe(false);

    await books.control('POST', `/companies/${encodeURIComponent(company.guid)}/open`);
    await completedAndBookedOnce(first.transaction_id, companyId, company.guid);
  });

  it('lets jobs wait while the books are stopped, reports presence, then runs them', async () => {
    connector = await startConnector(books);
    const company = await enrolAndPair(connector, relay, books);
    const companyId = relay.companyIds[0] as number;
    await books.control('POST', '/books/stop');
    await eventually('the connector to see the books stopped', () => connector?.status().books.running === false);
    await eventually('the relay to hear books stopped', async () => {
      const health = await relay.api('GET', `/api/v1/companies/${companyId}/health`);
      return health.books.running === false;
    });
    const acceptance = await relay.api('POST', `/api/v1/journals?company_id=${companyId}`, documentsByEndpoint('W1').journals);
    // The job waits (the relay holds it while the books are stopped; the connector would hold it too).
    const waiting = await relay.api('GET', `/api/v1/transactions/${acceptance.transaction_id}?company_id=${companyId}`);
    expect(waiting.transaction.status).not.toMatch(/completed|failed/);
    expect(connector.status().books.description).toMatch(/^TallyPrime does not answer at http:\/\/127\.0\.0\.1:\d+\. Open TallyPrime and load your company/);
    await books.control('POST', '/books/start');
    await completedAndBookedOnce(acceptance.transaction_id, companyId, company.guid);
  });
});
