// Turns a transactions row into the status record of the contract.
import type { TransactionRecordOut } from '@ledgerwire/shared';
import type { Selectable } from 'kysely';
import type { TransactionDocumentsTable, TransactionsTable } from '../bridge-tables.js';
import { parseJson } from '../bridge-ids.js';

export type TransactionRow = Selectable<TransactionsTable>;
export type TransactionDocumentRow = Selectable<TransactionDocumentsTable>;

export function transactionRecord(row: TransactionRow): TransactionRecordOut {
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
    error_code: row.error_code,
    error_label: row.error_label,
    error_message: row.error_message,
    payload: parseJson<Record<string, unknown>>(row.payload, {}),
    created_at: row.created_at,
    updated_at: row.updated_at,
    completed_at: row.completed_at,
  };
}
