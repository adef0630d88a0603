// Inserts a job: its queue row and, in the same transaction, its document, rendered XML and body
// fingerprint. The caller's own transaction id is unique per company (an index, not a read-then-write),
// so concurrent repeats create one job and every repeat gets the first one back — when it sent the same
// body. A repeat with another body is refused (409), as the messaging API refuses one: replaying the
// first acceptance would tell the caller its second write was taken when it was not.
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors/catalogue.js';
import type { TransactionDocumentsTable, TransactionsTable } from '../bridge-tables.js';
import type { TransactionRow } from './transaction-record.js';

export type NewJob = Omit<Insertable<TransactionsTable>, 'id'> & Omit<Insertable<TransactionDocumentsTable>, 'transaction_id'>;

export async function enqueueJob(db: Kysely<Database>, job: NewJob): Promise<{ row: TransactionRow; created: boolean }> {
  const { document, xml, xml_company_name, request_fingerprint, ...queued } = job;
  const inserted = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('transactions')
      .values(queued)
      .onConflict((oc) => oc.columns(['company_id', 'client_transaction_id']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (row) {
      await trx
        .insertInto('transaction_documents')
        .values({ transaction_id: row.id, document, xml, xml_company_name, request_fingerprint: request_fingerprint ?? null })
        .execute();
    }
    return row;
  });
  if (inserted) return { row: inserted, created: true };
  const { fingerprint, ...existing } = await db
    .selectFrom('transactions')
    .leftJoin('transaction_documents', 'transaction_documents.transaction_id', 'transactions.id')
    .selectAll('transactions')
    .select('transaction_documents.request_fingerprint as fingerprint')
    .where('transactions.company_id', '=', job.company_id)
    .where('transactions.client_transaction_id', '=', job.client_transaction_id ?? '')
    .executeTakeFirstOrThrow();
  // A job accepted before fingerprints were kept (0260) has none: it replays, as it always did.
  if (fingerprint !== null && request_fingerprint != null && fingerprint !== request_fingerprint) {
    throw new AppError('idempotency_conflict', {
      message:
        `transaction_id "${existing.client_transaction_id ?? ''}" was already used in this company for job ${existing.job_id} with a different body; ` +
        'a repeat must send the same body (it then replays the first acceptance), a new write needs a new transaction_id',
      details: [{ field: 'transaction_id', message: `already used for job ${existing.job_id} with a different body` }],
    });
  }
  return { row: existing, created: false };
}
