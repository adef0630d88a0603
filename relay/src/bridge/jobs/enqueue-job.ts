// Inserts a job: its queue row and, in the same transaction, its document and rendered XML. The caller's
// own transaction id is unique per company (an index, not a read-then-write), so concurrent repeats
// create one job and every repeat gets the first one back.
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { TransactionDocumentsTable, TransactionsTable } from '../bridge-tables.js';
import type { TransactionRow } from './transaction-record.js';

export type NewJob = Omit<Insertable<TransactionsTable>, 'id'> & Omit<Insertable<TransactionDocumentsTable>, 'transaction_id'>;

export async function enqueueJob(db: Kysely<Database>, job: NewJob): Promise<{ row: TransactionRow; created: boolean }> {
  const { document, xml, xml_company_name, ...queued } = job;
  const inserted = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('transactions')
      .values(queued)
      .onConflict((oc) => oc.columns(['company_id', 'client_transaction_id']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (row) await trx.insertInto('transaction_documents').values({ transaction_id: row.id, document, xml, xml_company_name }).execute();
    return row;
  });
  if (inserted) return { row: inserted, created: true };
  const existing = await db
    .selectFrom('transactions')
    .selectAll()
    .where('company_id', '=', job.company_id)
    .where('client_transaction_id', '=', job.client_transaction_id ?? '')
    .executeTakeFirstOrThrow();
  return { row: existing, created: false };
}
