// The latest report snapshots stored for a company (one per report key), to tell each report's state.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ReportSnapshotsTable } from '../../../db/bridge-tables.js';

export function listReportSnapshots(db: Kysely<Database>, companyId: number): Promise<Selectable<ReportSnapshotsTable>[]> {
  return db.selectFrom('report_snapshots').selectAll().where('company_id', '=', companyId).execute();
}
