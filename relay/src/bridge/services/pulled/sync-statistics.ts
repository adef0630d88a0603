// GET /api/v1/pulled-vouchers/statistics: one company's pulled-data counts and its report entries.
// A report is enabled when the company has it switched on AND the key holds its capability.
import type { ReportEntryOut, SyncStatisticsOut } from '@ledgerwire/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { CompanyRow } from '../../store/companies/company-repository.js';
import { compactDate } from './pulled-voucher-service.js';
import { countPulledMastersByType } from '../../store/pulled/count-pulled-masters-by-type.js';
import { countPulledVouchersByKindAndStatus } from '../../store/pulled/count-pulled-vouchers-by-kind-and-status.js';
import { listReportSnapshots } from '../../store/pulled/list-report-snapshots.js';

const REPORTS = [
  { key: 'stock', label: 'Stock summary', capability: 'report.stock', flag: 'report_stock' },
  { key: 'gst', label: 'GST summary', capability: 'report.gst', flag: 'report_gst' },
] as const;

export class SyncStatisticsService {
  private readonly db: Kysely<Database>;

  constructor(deps: { db: Kysely<Database> }) {
    this.db = deps.db;
  }

  async statistics(capabilities: readonly string[], company: CompanyRow, range: { start_date?: string; end_date?: string }): Promise<SyncStatisticsOut> {
    const byKindAndStatus = await countPulledVouchersByKindAndStatus(this.db, company.id, { start: compactDate(range.start_date), end: compactDate(range.end_date) });
    const byKind: Record<string, number> = {};
    let pending = 0;
    let acknowledged = 0;
    let lastSynced: string | null = null;
    for (const row of byKindAndStatus) {
      const n = Number(row.n);
      byKind[row.voucher_kind] = (byKind[row.voucher_kind] ?? 0) + n;
      if (row.status === 'pending') pending += n;
      else acknowledged += n;
      if (row.last && (lastSynced === null || row.last > lastSynced)) lastSynced = row.last;
    }
    const masters = await countPulledMastersByType(this.db, company.id);
    const byType = Object.fromEntries(masters.map((m) => [m.master_type, Number(m.n)]));
    return {
      success: true,
      company_id: company.id,
      start_date: range.start_date ?? null,
      end_date: range.end_date ?? null,
      vouchers: { total: pending + acknowledged, pending, acknowledged, by_kind: byKind, last_synced_at: lastSynced },
      masters: { total: Object.values(byType).reduce((a, b) => a + b, 0), by_type: byType },
      reports: await this.reports(capabilities, company),
    };
  }

  private async reports(capabilities: readonly string[], company: CompanyRow): Promise<ReportEntryOut[]> {
    const snapshots = await listReportSnapshots(this.db, company.id);
    return REPORTS.map((report) => {
      const enabled = company[report.flag] === 1 && capabilities.includes(report.capability);
      const snapshot = snapshots.find((s) => s.report_key === report.key);
      return {
        key: report.key,
        label: report.label,
        enabled,
        capability: report.capability,
        status: !enabled ? 'disabled' : snapshot ? 'available' : 'pending',
        rows: enabled ? (snapshot?.row_count ?? 0) : 0,
        last_updated_at: enabled ? (snapshot?.updated_at ?? null) : null,
      };
    });
  }
}
