// A voucher's whole life through the API, over a real relay (buildApp on port 0, on SQLite and on
// PostgreSQL when the run has it), the emulator
// over HTTP and the connector in-process (issue 20, item 6): written, altered by its books_voucher_guid,
// cancelled and deleted, it is one voucher in the books, altered in place, then cancelled, then gone.
// Then the readback: a receipt's party, a cancelled voucher and a voucher the books renumbered reach the
// caller right, and the transaction tells the number the books assigned. Shapes and their public
// sources: shared/src/books-xml/EVIDENCE.md.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConnectorHandle } from '../src/index.js';
import { enrolAndPair, startConnector, transactionSettled } from './helpers/connected-connector.js';
import { startTestEmulator, type TestEmulator } from './helpers/test-emulator.js';
import { availableDatabaseKinds } from '@ledgerwire/test-kit';
import { startCustomerRelay, type CustomerRelay } from './helpers/customer-relay.js';
import { documentsByEndpoint } from './helpers/voucher-documents.js';

describe.each(availableDatabaseKinds())('voucher lifecycle through the API [%s]', (database) => {
  let relay: CustomerRelay;
  let books: TestEmulator;
  let connector: ConnectorHandle | undefined;

  beforeEach(async () => {
    relay = await startCustomerRelay({ database, env: { CONNECTOR_CLAIM_INTERVAL_MS: '200', CONNECTOR_HEARTBEAT_MS: '1000' } });
    books = await startTestEmulator();
  });
  afterEach(async () => {
    await connector?.stop();
    connector = undefined;
    await relay.close();
    await books.close();
  });

  async function settledCompleted(jobId: string, companyId: number) {
    const transaction = await transactionSettled(relay, jobId, companyId);
    expect({ status: transaction.status, error: transaction.error_message }).toEqual({ status: 'completed', error: null });
    return transaction;
  }

  it('writes, alters in place, cancels and deletes one voucher: one voucher, then cancelled, then gone', async () => {
    connector = await startConnector(books);
    const company = await enrolAndPair(connector, relay, books);
    const companyId = relay.companyIds[0] as number;
    const inBooks = async () => books.vouchers(company.guid);
    const before = (await inBooks()).length;
    const document = { ...documentsByEndpoint('LC1').journals, narration: 'first cut', transaction_id: 'jv-lc1' };

    const created = await relay.api('POST', `/api/v1/journals?company_id=${companyId}`, document);
    const guid: string = (await settledCompleted(created.transaction_id, companyId)).books_voucher_guid;
    const [first] = (await inBooks()).filter((v) => v.guid === guid);
    expect(first).toBeDefined();

    // Altered by its GUID: the same voucher re-stated (no second one), with the new amounts and narration.
    const altered = {
      ...documentsByEndpoint('LC1').journals,
      narration: 'second cut',
      ledger_entries: [
        { ledger_name: 'Office Rent', amount: 120, is_debit: true },
        { ledger_name: 'Freight & Cartage', amount: 120, is_debit: false },
      ],
      books_voucher_guid: guid,
    };
    const alteration = await relay.api('POST', `/api/v1/journals?company_id=${companyId}`, altered);
    const alterRecord = await settledCompleted(alteration.transaction_id, companyId);
    expect(alterRecord).toMatchObject({ event_type: 'journal.alter', books_voucher_guid: guid, payload: { action: 'alter', target_job_id: created.transaction_id } });
    const afterAlter = (await inBooks()).filter((v) => v.guid === guid);
    expect(afterAlter.map((v) => [v.narration, v.masterId, (v as unknown as { ledgerEntries: { amount: number }[] }).ledgerEntries.map((e) => Math.abs(e.amount))])).toEqual([
      ['second cut', first?.masterId, [120, 120]],
    ]);
    expect(afterAlter[0]?.alterId).toBeGreaterThan(first?.alterId ?? 0);
    expect((await inBooks()).length).toBe(before + 1);

    // Cancelled (void): still there, marked cancelled, its entries gone.
    const cancel = await relay.api('POST', `/api/v1/vouchers/${encodeURIComponent(guid)}/cancel?company_id=${companyId}`, { narration: 'voided by the customer' });
    const cancelRecord = await settledCompleted(cancel.transaction_id, companyId);
    expect(cancelRecord).toMatchObject({ event_type: 'journal.cancel', books_voucher_guid: guid, payload: { action: 'cancel', books_voucher_guid: guid } });
    const cancelled = (await inBooks()).filter((v) => v.guid === guid) as unknown as { isCancelled: boolean; narration: string; ledgerEntries: unknown[] }[];
    expect(cancelled.map((v) => [v.isCancelled, v.narration, v.ledgerEntries.length])).toEqual([[true, 'voided by the customer', 0]]);
    expect((await inBooks()).length).toBe(before + 1);

    // Deleted, addressed this time by the caller's own transaction id of the write that booked it.
    const deletion = await relay.api('POST', `/api/v1/vouchers/jv-lc1/delete?company_id=${companyId}`, { transaction_id: 'jv-lc1-delete' });
    await settledCompleted(deletion.transaction_id, companyId);
    expect((await inBooks()).some((v) => v.guid === guid)).toBe(false);
    expect((await inBooks()).length).toBe(before);

    // A repeat with the same transaction_id replays the acceptance; nothing new is queued.
    const again = await relay.api('POST', `/api/v1/vouchers/${encodeURIComponent(guid)}/delete?company_id=${companyId}`, { transaction_id: 'jv-lc1-delete' });
    expect(again).toEqual(deletion);
    // A second delete reaches the books, which no longer have the voucher.
    const stray = await relay.api('POST', `/api/v1/vouchers/${encodeURIComponent(guid)}/delete?company_id=${companyId}`, {});
    expect(await transactionSettled(relay, stray.transaction_id, companyId)).toMatchObject({
      status: 'failed',
      error_code: 'VOUCHER_NOT_FOUND',
      error_label: 'Voucher not found',
      books_voucher_guid: null,
    });
    // Altering what the API deleted would book it again under a new GUID: refused.
    const refused = await relay.api('POST', `/api/v1/journals?company_id=${companyId}`, altered, 409);
    expect(refused.error.code).toBe('conflict');
    const unknown = await relay.api('POST', `/api/v1/vouchers/no-such-voucher/cancel?company_id=${companyId}`, {}, 404);
    expect(unknown.error.code).toBe('voucher_not_found');
  });

  it("reads back a receipt's party, a cancelled voucher and the number the books assigned", async () => {
    connector = await startConnector(books);
    await enrolAndPair(connector, relay, books);
    const companyId = relay.companyIds[0] as number;
    const documents = documentsByEndpoint('RB1');
    const receipt = await relay.api('POST', `/api/v1/receipts?company_id=${companyId}`, documents.receipts);
    // "Auto Sales" numbers automatically: the books discard the number sent and assign their own.
    const renumbered = await relay.api('POST', `/api/v1/invoices?company_id=${companyId}`, { ...documents.invoices, voucher_type: 'Auto Sales', voucher_number: 'SENT-RB1' });
    const journal = await relay.api('POST', `/api/v1/journals?company_id=${companyId}`, documents.journals);
    const receiptGuid: string = (await settledCompleted(receipt.transaction_id, companyId)).books_voucher_guid;
    const invoiceGuid: string = (await settledCompleted(renumbered.transaction_id, companyId)).books_voucher_guid;
    const journalGuid: string = (await settledCompleted(journal.transaction_id, companyId)).books_voucher_guid;
    const cancel = await relay.api('POST', `/api/v1/vouchers/${encodeURIComponent(journalGuid)}/cancel?company_id=${companyId}`, {});
    await settledCompleted(cancel.transaction_id, companyId);

    // The pass pairing started may still run (it read the books before these writes): then a fresh one.
    await connector.syncNow();
    await connector.syncNow();
    const pulled = async (guid: string) => {
      const list = await relay.api('GET', `/api/v1/pulled-vouchers?company_id=${companyId}&limit=500`);
      return list.invoices.find((v: { books_voucher_guid: string }) => v.books_voucher_guid === guid);
    };
    const pulledReceipt = await pulled(receiptGuid);
    expect(pulledReceipt).toMatchObject({ voucher_kind: 'receipt', party_ledger: 'Ram & Sons', source_job_id: receipt.transaction_id });
    expect(pulledReceipt.ledger_entries.filter((e: { is_party: boolean }) => e.is_party).map((e: { ledger_name: string }) => e.ledger_name)).toEqual(['Ram & Sons']);

    const pulledJournal = await pulled(journalGuid);
    expect(pulledJournal).toMatchObject({ is_cancelled: true, ledger_entries: [], bill_allocations: [] });

    const booksNumber = (await books.vouchers((await books.companies())[0]?.guid ?? '')).find((v) => v.guid === invoiceGuid)?.voucherNumber;
    expect(booksNumber).toBeDefined();
    expect(booksNumber).not.toBe('SENT-RB1');
    expect(await pulled(invoiceGuid)).toMatchObject({ voucher_number: booksNumber, source_job_id: renumbered.transaction_id });
    const { transaction } = await relay.api('GET', `/api/v1/transactions/${renumbered.transaction_id}?company_id=${companyId}`);
    expect(transaction).toMatchObject({ books_voucher_guid: invoiceGuid, books_voucher_number: booksNumber, payload: { voucher_number: 'SENT-RB1' } });
  });
});
