// Companies as support sees them, in one query per page: names instead of ids (application, customer,
// connector machine, books company), the paired connector's last report, the queue counts, and why
// the queue waits (console-waiting-reason.ts).
import { sql, type Kysely } from 'kysely';
import type { ConsoleCompanyOverviewOut, ConsoleCompanySearchQuery } from '@ledgerwire/shared';
import type { Database } from '../db/schema.js';
import { AppError } from '../errors/catalogue.js';
import { connectorFacts } from '../bridge/jobs/waiting-reason.js';
import { companyOpenIn, companyWaitingReason, isPaired, PAIRING_AND_PRESENCE_COLUMNS } from './console-waiting-reason.js';
import { columnContains } from './console-sql.js';

type Filter = Readonly<{ applicationId?: string | undefined; q?: string | undefined; companyId?: number; limit: number; offset: number }>;

export class ConsoleCompanyOverview {
  constructor(private readonly db: Kysely<Database>) {}

  async search(query: ConsoleCompanySearchQuery): Promise<{ total: number; companies: ConsoleCompanyOverviewOut[] }> {
    return this.page({ applicationId: query.application_id, q: query.q, limit: query.limit, offset: query.offset });
  }

  async one(companyId: number): Promise<ConsoleCompanyOverviewOut> {
    const { companies } = await this.page({ companyId, limit: 1, offset: 0 });
    const company = companies[0];
    if (!company) throw new AppError('company_not_found', { message: `No company ${companyId}` });
    return company;
  }

  private async page(filter: Filter): Promise<{ total: number; companies: ConsoleCompanyOverviewOut[] }> {
    const count = (status: 'queued' | 'processing' | 'failed') =>
      sql<number | string>`(select count(*) from transactions t where t.company_id = c.id and t.status = ${status})`;
    let query = this.db
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
    const rows = await query.orderBy('c.name').orderBy('c.id').limit(filter.limit).offset(filter.offset).execute();
    const total = rows[0] ? Number(rows[0].total) : await this.countOnly(filter);
    return {
      total,
      companies: rows.map((row) => {
        const paired = isPaired(row);
        const connector = connectorFacts(row);
        const queued = Number(row.jobs_queued);
        const processing = Number(row.jobs_processing);
        return {
          company_id: Number(row.id),
          name: row.name,
          application_id: row.application_id,
          application_name: row.application_name,
          customer_id: row.customer_id,
          customer_name: row.customer_name,
          paired,
          connector_id: row.connector_id,
          connector_machine: row.machine_name,
          connector_online: connector?.online ?? false,
          connector_last_seen_at: row.last_seen_at,
          books_running: connector?.books_running ?? false,
          books_company_guid: row.books_company_guid,
          books_company_name: row.books_company_name,
          company_open: companyOpenIn(row, connector),
          jobs_queued: queued,
          jobs_processing: processing,
          jobs_failed: Number(row.jobs_failed),
          oldest_queued_at: row.oldest_queued_at,
          waiting_reason: companyWaitingReason(row, connector, { queued, processing }),
        };
      }),
    };
  }

  /** The total when the page asked for is past the end (no row carried the window count). */
  private async countOnly(filter: Filter): Promise<number> {
    if (filter.offset === 0) return 0;
    const { total } = await this.page({ ...filter, offset: 0, limit: 1 });
    return total;
  }
}
