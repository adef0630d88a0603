// What a job's import XML is rendered from (its queue row and submitted document): read again when the
// company was paired to a books company of another name after the write was accepted.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { TransactionDocumentsTable, TransactionsTable } from '../../../db/bridge-tables.js';

export type JobRenderSource = Pick<Selectable<TransactionsTable>, 'job_type' | 'job_id' | 'target_voucher_guid' | 'payload' | 'master_type'> &
  Pick<Selectable<TransactionDocumentsTable>, 'document'>;

export function findJobRenderSource(db: Kysely<Database>, transactionId: number): Promise<JobRenderSource> {
  return db
    .selectFrom('transactions')
    .innerJoin('transaction_documents', 'transaction_documents.transaction_id', 'transactions.id')
    .select(['job_type', 'job_id', 'target_voucher_guid', 'payload', 'master_type', 'document'])
    .where('transactions.id', '=', transactionId)
    .executeTakeFirstOrThrow();
}
