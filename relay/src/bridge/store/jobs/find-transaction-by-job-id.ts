// One transaction by its public job id under any application: support's lookup, not scoped to a key.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { TransactionsTable } from '../../../db/bridge-tables.js';

export function findTransactionByJobId(db: Kysely<Database>, jobId: string): Promise<Selectable<TransactionsTable> | undefined> {
  return db.selectFrom('transactions').selectAll().where('job_id', '=', jobId).executeTakeFirst();
}
