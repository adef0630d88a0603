// The job an earlier write with the same (company, transaction_id) made, with the fingerprint of the
// body it was accepted with: a repeat replays it only when its body matches.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { TransactionsTable } from '../../../db/bridge-tables.js';

export type EarlierJob = Selectable<TransactionsTable> & { fingerprint: string | null };

export function findEarlierJob(db: Kysely<Database>, companyId: number, clientTransactionId: string): Promise<EarlierJob> {
  return db
    .selectFrom('transactions')
    .leftJoin('transaction_documents', 'transaction_documents.transaction_id', 'transactions.id')
    .selectAll('transactions')
    .select('transaction_documents.request_fingerprint as fingerprint')
    .where('transactions.company_id', '=', companyId)
    .where('transactions.client_transaction_id', '=', clientTransactionId)
    .executeTakeFirstOrThrow();
}
