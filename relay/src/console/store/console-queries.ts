// The console's read-only queries over the messaging and bridge tables: each read is an operation of
// store/ (written to run the same on SQLite and PostgreSQL); this class shapes their rows.
import type { Kysely } from 'kysely';
import type { ConsoleMessageSearchQuery, ConsoleMessageSummaryOut, ConsolePulledCountOut, DeliveryStatus } from '@ledgerwire/shared';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors/catalogue.js';
import { countPulledMasters } from './count-pulled-masters.js';
import { countPulledVouchers } from './count-pulled-vouchers.js';
import { findTenantId } from './find-tenant-id.js';
import { listCompanyIds } from './list-company-ids.js';
import { searchConsoleMessages } from './search-console-messages.js';

export class ConsoleQueries {
  constructor(private readonly db: Kysely<Database>) {}

  async assertTenantExists(tenantId: string): Promise<void> {
    const tenant = await findTenantId(this.db, tenantId);
    if (tenant === undefined) throw new AppError('tenant_not_found');
  }

  async searchMessages(tenantId: string, query: ConsoleMessageSearchQuery): Promise<{ total: number; messages: ConsoleMessageSummaryOut[] }> {
    await this.assertTenantExists(tenantId);
    const { total, rows } = await searchConsoleMessages(this.db, tenantId, query);
    return {
      total,
      messages: rows.map((row) => ({
        message_id: row.id,
        status: row.status as DeliveryStatus,
        channel: row.channel,
        to: row.to_address,
        subject: row.subject,
        event_key: row.event_key,
        transaction_id: row.transaction_id,
        provider: row.provider,
        attempts: row.attempts,
        metadata: row.metadata === null ? {} : (JSON.parse(row.metadata) as Record<string, string>),
        tags: row.tags === null ? [] : (JSON.parse(row.tags) as string[]),
        created_at: row.created_at,
        updated_at: row.updated_at,
      })),
    };
  }

  /** One row per company of the application (or of every application), zeros where nothing was pulled. */
  async pulledCounts(applicationId: string | undefined): Promise<ConsolePulledCountOut[]> {
    const ids = await listCompanyIds(this.db, applicationId);
    if (ids.length === 0) return [];
    const vouchers = await countPulledVouchers(this.db, ids);
    const masters = await countPulledMasters(this.db, ids);
    const counts = new Map<number, ConsolePulledCountOut>(
      ids.map((id) => [id, { company_id: id, vouchers_pending: 0, vouchers_acknowledged: 0, vouchers_deleted: 0, masters: 0, masters_deleted: 0, last_pulled_at: null }]),
    );
    const seen = (entry: ConsolePulledCountOut, at: string | null) => {
      if (at !== null && (entry.last_pulled_at === null || at > entry.last_pulled_at)) entry.last_pulled_at = at;
    };
    for (const row of vouchers) {
      const entry = counts.get(Number(row.company_id));
      if (!entry) continue;
      const n = Number(row.count);
      if (Number(row.deleted) === 1) entry.vouchers_deleted += n;
      else if (row.status === 'acknowledged') entry.vouchers_acknowledged += n;
      else entry.vouchers_pending += n;
      seen(entry, row.last_at);
    }
    for (const row of masters) {
      const entry = counts.get(Number(row.company_id));
      if (!entry) continue;
      if (Number(row.deleted) === 1) entry.masters_deleted += Number(row.count);
      else entry.masters += Number(row.count);
      seen(entry, row.last_at);
    }
    return [...counts.values()];
  }
}
