// One page of transactions across applications for support, newest first, with the total the filter
// matches; application and company narrow it only when given.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { TransactionsTable } from '../../../db/bridge-tables.js';

type Row = Selectable<TransactionsTable>;

export async function listOperatorTransactions(
  db: Kysely<Database>,
  filter: Readonly<{ application_id?: string; company_id?: number; status?: Row['status']; job_type?: Row['job_type']; limit: number; offset: number }>,
): Promise<{ total: number; rows: Row[] }> {
  let query = db.selectFrom('transactions');
  if (filter.application_id) query = query.where('application_id', '=', filter.application_id);
  if (filter.company_id !== undefined) query = query.where('company_id', '=', filter.company_id);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.job_type) query = query.where('job_type', '=', filter.job_type);
  const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await query.selectAll().orderBy('id', 'desc').limit(filter.limit).offset(filter.offset).execute();
  return { total: Number(total), rows };
}
