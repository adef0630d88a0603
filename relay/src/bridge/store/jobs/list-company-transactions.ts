// One page of a company's transactions, newest first, with the total the filter matches (count and
// page read the same filter, so the pager's numbers agree with the rows).
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { TransactionsTable } from '../../../db/bridge-tables.js';

type Row = Selectable<TransactionsTable>;

export async function listCompanyTransactions(
  db: Kysely<Database>,
  companyId: number,
  filter: Readonly<{ status?: Row['status']; job_type?: Row['job_type']; master_type?: string; limit: number; offset: number }>,
): Promise<{ total: number; rows: Row[] }> {
  let query = db.selectFrom('transactions').where('company_id', '=', companyId);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.job_type) query = query.where('job_type', '=', filter.job_type);
  if (filter.master_type) query = query.where('master_type', '=', filter.master_type);
  const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await query.selectAll().orderBy('id', 'desc').limit(filter.limit).offset(filter.offset).execute();
  return { total: Number(total), rows };
}
