// Keeps the latest snapshot of one report of a company, replacing the previous one in the same
// statement (an upsert on company and report key).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function saveReportSnapshot(
  db: Kysely<Database>,
  companyId: number,
  report: { key: 'stock' | 'gst'; rows: readonly unknown[] },
  now: string,
): Promise<void> {
  const values = { rows: JSON.stringify(report.rows), row_count: report.rows.length, updated_at: now };
  await db
    .insertInto('report_snapshots')
    .values({ company_id: companyId, report_key: report.key, ...values })
    .onConflict((oc) => oc.columns(['company_id', 'report_key']).doUpdateSet(values))
    .execute();
}
