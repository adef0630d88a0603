// Records what the connector reports about its jobs: completed (with what the books gave it) or failed
// (with a sanitised error). A connector reports a whole import request's jobs at once, so a run is
// written in one transaction with one UPDATE per kind of outcome.
// Idempotent per job: only a job still processing (or queued again meanwhile: the books did import it)
// is settled, and only by the connector it was leased to; a repeat is reported as not recorded. A job
// the relay gave up on as CONNECTOR_OFFLINE is the one exception: that was the relay's guess, and the
// connector may still have held the job and run it later — what the books did replaces the guess, so
// the transaction reads completed when the voucher is in the books.
// The settled jobs' transaction.completed / transaction.failed webhooks are queued in the same
// transaction (transaction-outcome-events.ts): announced once, with the outcome or not at all.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { sanitiseJobError } from './job-error-sanitiser.js';
import { queueTransactionOutcomeEvents, type SettledJob } from './transaction-outcome-events.js';

type Completed = Readonly<{ job_id: string; status: 'completed'; books_voucher_guid?: string | null; books_master_id?: string | null; books_alter_id?: string | null }>;
type Failed = Readonly<{ job_id: string; status: 'failed'; error_code: string; error_label: string; error_message: string }>;
export type JobOutcomeReport = Completed | Failed;

/**
 * One UPDATE … FROM (VALUES …) per kind of outcome: each job's own values ride in the VALUES list (its
 * columns are column1, column2, … on SQLite and PostgreSQL alike). Written as SQL rather than with the
 * query builder: a run of fifty CASE branches costs the builder more than the database.
 */
async function settle(trx: Transaction<Database>, connectorId: string, now: string, completed: readonly Completed[], failed: readonly Failed[]): Promise<Map<string, SettledJob>> {
  const settled = new Map<string, SettledJob>();
  const pending = sql`transactions.job_id = v.column1 and transactions.connector_id = ${connectorId}
    and (transactions.status in ('processing', 'queued') or (transactions.status = 'failed' and transactions.error_code = 'CONNECTOR_OFFLINE'))`;
  const done = sql`lease_expires_at = null, lease_session = null, completed_at = ${now}, updated_at = ${now}`;
  if (completed.length > 0) {
    const values = sql.join(completed.map((r) => sql`(${r.job_id}, ${r.books_voucher_guid ?? null}, ${r.books_master_id ?? null}, ${r.books_alter_id ?? null})`));
    const { rows } = await sql<SettledJob>`
      update transactions set status = 'completed',
        books_voucher_guid = coalesce(v.column2, transactions.target_voucher_guid),
        books_master_id = v.column3, books_alter_id = v.column4,
        error_code = null, error_label = null, error_message = null, ${done}
      from (values ${values}) as v
      where ${pending}
      returning transactions.job_id, transactions.application_id`.execute(trx);
    for (const row of rows) settled.set(row.job_id, row);
  }
  if (failed.length > 0) {
    const values = sql.join(
      failed.map((r) => {
        const clean = sanitiseJobError(r);
        return sql`(${r.job_id}, ${clean.error_code}, ${clean.error_label}, ${clean.error_message})`;
      }),
    );
    const { rows } = await sql<SettledJob>`
      update transactions set status = 'failed', books_voucher_guid = null,
        error_code = v.column2, error_label = v.column3, error_message = v.column4, ${done}
      from (values ${values}) as v
      where ${pending}
      returning transactions.job_id, transactions.application_id`.execute(trx);
    for (const row of rows) settled.set(row.job_id, row);
  }
  return settled;
}

/**
 * Settles each reported job; returns, per report in order, whether it was recorded (false: a repeat),
 * and how many webhook deliveries its outcome events queued.
 */
export async function recordOutcomes(
  db: Kysely<Database>,
  connectorId: string,
  reports: readonly JobOutcomeReport[],
  now: string,
): Promise<{ recorded: boolean[]; webhookDeliveries: number }> {
  // A job reported twice in one run counts once: its first report.
  const first = new Map<string, JobOutcomeReport>();
  for (const report of reports) if (!first.has(report.job_id)) first.set(report.job_id, report);
  const unique = [...first.values()];
  if (unique.length === 0) return { recorded: [], webhookDeliveries: 0 };
  const { settled, deliveries } = await db.transaction().execute(async (trx) => {
    const done = await settle(trx, connectorId, now, unique.filter((r): r is Completed => r.status === 'completed'), unique.filter((r): r is Failed => r.status === 'failed'));
    return { settled: done, deliveries: await queueTransactionOutcomeEvents(trx, [...done.values()], now) };
  });
  return {
    recorded: reports.map((report, index) => settled.has(report.job_id) && reports.findIndex((r) => r.job_id === report.job_id) === index),
    webhookDeliveries: deliveries,
  };
}
