// Records what the connector reports about its jobs: completed (with what the books gave it) or failed
// (with a sanitised error). A connector reports a whole import request's jobs at once, so a run is
// written in one transaction with one UPDATE per kind of outcome (a CASE picks each job's values).
// Idempotent per job: only a job still processing (or queued again meanwhile: the books did import it)
// is settled, and only by the connector it was leased to; a repeat is reported as not recorded.
import type { ExpressionBuilder, Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { sanitiseJobError } from './job-error-sanitiser.js';

type Completed = Readonly<{ job_id: string; status: 'completed'; books_voucher_guid?: string | null; books_master_id?: string | null; books_alter_id?: string | null }>;
type Failed = Readonly<{ job_id: string; status: 'failed'; error_code: string; error_label: string; error_message: string }>;
export type JobOutcomeReport = Completed | Failed;

type Column = 'target_voucher_guid' | 'books_voucher_guid' | 'books_master_id' | 'books_alter_id' | 'error_code' | 'error_label' | 'error_message';

/** Each job's own value for a column: CASE job_id WHEN … THEN … END (ELSE `otherwise`). */
function perJob<T extends { job_id: string }>(eb: ExpressionBuilder<Database, 'transactions'>, reports: readonly T[], value: (report: T) => string | null, otherwise?: Column) {
  let cases = eb.case('job_id').when(reports[0]?.job_id ?? '').then(value(reports[0] as T));
  for (const report of reports.slice(1)) cases = cases.when(report.job_id).then(value(report));
  return otherwise ? cases.else(eb.ref(otherwise)).end() : cases.else(null).end();
}

async function settle(trx: Transaction<Database>, connectorId: string, now: string, completed: readonly Completed[], failed: readonly Failed[]): Promise<Set<string>> {
  const settled = new Set<string>();
  const pending = (ids: readonly string[]) =>
    trx
      .updateTable('transactions')
      .where('job_id', 'in', ids)
      .where('connector_id', '=', connectorId)
      .where('status', 'in', ['processing', 'queued']);
  const done = { lease_expires_at: null, lease_session: null, completed_at: now, updated_at: now };
  if (completed.length > 0) {
    const rows = await pending(completed.map((r) => r.job_id))
      .set((eb) => ({
        status: 'completed',
        // An alteration the books answered without a GUID keeps the voucher it targeted.
        books_voucher_guid: perJob(eb, completed, (r) => r.books_voucher_guid ?? null, 'target_voucher_guid'),
        books_master_id: perJob(eb, completed, (r) => r.books_master_id ?? null),
        books_alter_id: perJob(eb, completed, (r) => r.books_alter_id ?? null),
        error_code: null,
        error_label: null,
        error_message: null,
        ...done,
      }))
      .returning('job_id')
      .execute();
    for (const row of rows) settled.add(row.job_id);
  }
  if (failed.length > 0) {
    const clean = failed.map((r) => ({ job_id: r.job_id, ...sanitiseJobError(r) }));
    const rows = await pending(clean.map((r) => r.job_id))
      .set((eb) => ({
        status: 'failed',
        books_voucher_guid: null,
        error_code: perJob(eb, clean, (r) => r.error_code),
        error_label: perJob(eb, clean, (r) => r.error_label),
        error_message: perJob(eb, clean, (r) => r.error_message),
        ...done,
      }))
      .returning('job_id')
      .execute();
    for (const row of rows) settled.add(row.job_id);
  }
  return settled;
}

/** Settles each reported job; returns, per report in order, whether it was recorded (false: a repeat). */
export async function recordOutcomes(db: Kysely<Database>, connectorId: string, reports: readonly JobOutcomeReport[], now: string): Promise<boolean[]> {
  // A job reported twice in one run counts once: its first report.
  const first = new Map<string, JobOutcomeReport>();
  for (const report of reports) if (!first.has(report.job_id)) first.set(report.job_id, report);
  const unique = [...first.values()];
  if (unique.length === 0) return [];
  const settled = await db.transaction().execute((trx) =>
    settle(trx, connectorId, now, unique.filter((r): r is Completed => r.status === 'completed'), unique.filter((r): r is Failed => r.status === 'failed')),
  );
  return reports.map((report, index) => settled.has(report.job_id) && reports.findIndex((r) => r.job_id === report.job_id) === index);
}
