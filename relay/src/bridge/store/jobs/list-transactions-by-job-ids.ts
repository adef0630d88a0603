// Whole transaction rows by job id, oldest first: read inside the settling transaction to build the
// outcome webhooks of the jobs it just settled.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { TransactionsTable } from '../../../db/bridge-tables.js';

export function listTransactionsByJobIds(db: Kysely<Database>, jobIds: readonly string[]): Promise<Selectable<TransactionsTable>[]> {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where('job_id', 'in', [...jobIds])
    .orderBy('id')
    .execute();
}
