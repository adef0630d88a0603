// Transactions of the application under the caller's own transaction id, in the same scope as the
// lookup by job id. At most two: the id is unique per company only, and two already make it ambiguous.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { TransactionsTable } from '../../../db/bridge-tables.js';

export function findApplicationTransactionsByClientId(
  db: Kysely<Database>,
  applicationId: string,
  clientTransactionId: string,
  scope: { companyId?: number | undefined; masterType?: string },
): Promise<Selectable<TransactionsTable>[]> {
  let base = db.selectFrom('transactions').selectAll().where('application_id', '=', applicationId);
  if (scope.companyId !== undefined) base = base.where('company_id', '=', scope.companyId);
  if (scope.masterType !== undefined) base = base.where('job_type', '=', 'master').where('master_type', '=', scope.masterType);
  return base.where('client_transaction_id', '=', clientTransactionId).limit(2).execute();
}
