// Turns a transactions row into the status record of the contract.
import { failedJobGuidance, type TransactionRecordOut, type WaitingReasonOut } from '@ledgerwire/shared';
import type { Selectable } from 'kysely';
import type { TransactionDocumentsTable, TransactionsTable } from '../../../db/bridge-tables.js';
import { parseJson } from '../bridge-ids.js';

export type TransactionRow = Selectable<TransactionsTable>;
export type TransactionDocumentRow = Selectable<TransactionDocumentsTable>;
/** A row with the voucher number the books hold, once the sync has pulled its voucher (pulled-books-ids.ts). */
export type TransactionRowWithBooks = TransactionRow & { books_voucher_number?: string | null };

/** `waitingReason`: see waiting-reason.ts; null for a finished row or where the caller did not look it up. */
export function transactionRecord(row: TransactionRowWithBooks, waitingReason: WaitingReasonOut | null = null): TransactionRecordOut {
  const payload = parseJson<Record<string, unknown>>(row.payload, {});
  // Worded when read, from the stored code and message: better words reach every failed row at once.
  const guidance = row.status === 'failed' && row.error_code !== null
    ? failedJobGuidance({ error_code: row.error_code, error_message: row.error_message, payload })
    : null;
  return {
    job_id: row.job_id,
    transaction_id: row.client_transaction_id ?? row.job_id,
    service_company_id: row.company_id,
    job_type: row.job_type,
    event_type: row.event_type,
    status: row.status,
    retry_count: row.retry_count,
    max_retries: row.max_retries,
    books_voucher_guid: row.status === 'failed' ? null : row.books_voucher_guid,
    books_master_id: row.books_master_id,
    books_alter_id: row.books_alter_id,
    books_voucher_number: row.status === 'failed' ? null : (row.books_voucher_number ?? null),
    error_code: row.error_code,
    error_label: row.error_label,
    error_message: row.error_message,
    user_message: guidance?.user_message ?? null,
    fix_by: guidance?.fix_by ?? null,
    payload,
    created_at: row.created_at,
    updated_at: row.updated_at,
    completed_at: row.completed_at,
    waiting_reason: row.status === 'queued' || row.status === 'processing' ? waitingReason : null,
  };
}
