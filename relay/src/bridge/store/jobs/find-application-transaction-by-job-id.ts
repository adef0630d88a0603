// One transaction of the application by its public job id, optionally narrowed to a company and to
// master jobs of one type: the scope a caller's key or route allows.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { TransactionsTable } from '../../../db/bridge-tables.js';

export function findApplicationTransactionByJobId(
  db: Kysely<Database>,
  applicationId: string,
  jobId: string,
  scope: { companyId?: number | undefined; masterType?: string },
): Promise<Selectable<TransactionsTable> | undefined> {
  let base = db.selectFrom('transactions').selectAll().where('application_id', '=', applicationId);
  if (scope.companyId !== undefined) base = base.where('company_id', '=', scope.companyId);
  if (scope.masterType !== undefined) base = base.where('job_type', '=', 'master').where('master_type', '=', scope.masterType);
  return base.where('job_id', '=', jobId).executeTakeFirst();
}
