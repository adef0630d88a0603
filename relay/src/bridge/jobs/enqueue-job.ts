// Inserts a job. The caller's own transaction id is unique per company (an index, not a read-then-
// write), so concurrent repeats create one job and every repeat gets the first one back.
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { TransactionsTable } from '../bridge-tables.js';
import type { TransactionRow } from './transaction-record.js';

export type NewJob = Omit<Insertable<TransactionsTable>, 'id'>;

export async function enqueueJob(db: Kysely<Database>, job: NewJob): Promise<{ row: TransactionRow; created: boolean }> {
  const inserted = await db
    .insertInto('transactions')
    .values(job)
    .onConflict((oc) => oc.columns(['company_id', 'client_transaction_id']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { row: inserted, created: true };
  const existing = await db
    .selectFrom('transactions')
    .selectAll()
    .where('company_id', '=', job.company_id)
    .where('client_transaction_id', '=', job.client_transaction_id ?? '')
    .executeTakeFirstOrThrow();
  return { row: existing, created: false };
}
