// Companies as support sees them, in one query per page: names instead of ids (application, customer,
// connector machine, books company), the paired connector's last report, the queue counts, and why
// the queue waits (console-waiting-reason.ts). The query is store/search-console-companies.ts; this
// class turns its rows into the console's shape.
import type { Kysely } from 'kysely';
import type { ConsoleCompanyOverviewOut, ConsoleCompanySearchQuery } from '@ledgerwire/shared';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors/catalogue.js';
import { connectorFacts } from '../../bridge/services/jobs/waiting-reason.js';
import { companyOpenIn, companyWaitingReason, isPaired } from './console-waiting-reason.js';
import { searchConsoleCompanies, type ConsoleCompanyFilter as Filter } from '../store/search-console-companies.js';

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
    const rows = await searchConsoleCompanies(this.db, filter);
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
