// One page of companies as support sees them, in one query: names instead of ids (application,
// customer, connector machine, books company), the paired connector's last report, the queue counts
// and the total (a window count), so a page costs one round trip however many companies it shows.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { PAIRING_AND_PRESENCE_COLUMNS } from './pairing-and-presence-columns.js';
import { columnContains } from './console-sql.js';

export type ConsoleCompanyFilter = Readonly<{ applicationId?: string | undefined; q?: string | undefined; companyId?: number; limit: number; offset: number }>;

export async function searchConsoleCompanies(db: Kysely<Database>, filter: ConsoleCompanyFilter) {
  const count = (status: 'queued' | 'processing' | 'failed') =>
    sql<number | string>`(select count(*) from transactions t where t.company_id = c.id and t.status = ${status})`;
  let query = db
    .selectFrom('companies as c')
    .leftJoin('applications as a', 'a.id', 'c.application_id')
    .leftJoin('customers as cu', 'cu.id', 'c.customer_id')
    .leftJoin('connectors as k', 'k.id', 'c.connector_id')
    .select([
      'c.id',
      'c.name',
      'c.application_id',
      'a.name as application_name',
      'c.customer_id',
      'cu.name as customer_name',
      ...PAIRING_AND_PRESENCE_COLUMNS,
      count('queued').as('jobs_queued'),
      count('processing').as('jobs_processing'),
      count('failed').as('jobs_failed'),
      sql<string | null>`(select min(t.created_at) from transactions t where t.company_id = c.id and t.status = 'queued')`.as('oldest_queued_at'),
      sql<number | string>`count(*) over ()`.as('total'),
    ]);
  if (filter.companyId !== undefined) query = query.where('c.id', '=', filter.companyId);
  if (filter.applicationId !== undefined) query = query.where('c.application_id', '=', filter.applicationId);
  const text = filter.q;
  if (text !== undefined) {
    query = query.where((eb) => eb.or([columnContains('c.name', text), columnContains('cu.name', text), columnContains('c.books_company_name', text)]));
  }
  return query.orderBy('c.name').orderBy('c.id').limit(filter.limit).offset(filter.offset).execute();
}
