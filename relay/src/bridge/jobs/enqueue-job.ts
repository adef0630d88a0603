// Inserts jobs: their queue rows and, in the same transaction, their documents, rendered XML and body
// fingerprints — one job, or a batch of concurrent ones in one transaction (see job-group-commit.ts).
// The caller's own transaction id is unique per company (an index, not a read-then-write), so
// concurrent repeats create one job and every repeat gets the first one back — when it sent the same
// body. A repeat with another body is refused (409), as the messaging API refuses one: replaying the
// first acceptance would tell the caller its second write was taken when it was not.
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors/catalogue.js';
import type { TransactionDocumentsTable, TransactionsTable } from '../bridge-tables.js';
import type { TransactionRow } from './transaction-record.js';

export type NewJob = Omit<Insertable<TransactionsTable>, 'id'> & Omit<Insertable<TransactionDocumentsTable>, 'transaction_id'>;

/**
 * Inserts the jobs in one transaction, in their order (so their ids follow it), each with its
 * document. Answers each job's new row, or undefined for one whose (company, transaction_id) was
 * taken — by an earlier job, or by an earlier job of the same batch. Throws when the transaction
 * fails: nothing of the batch is kept.
 */
export async function insertJobs(db: Kysely<Database>, jobs: readonly NewJob[]): Promise<(TransactionRow | undefined)[]> {
  if (jobs.length === 0) return [];
  const queued = jobs.map(({ document: _document, xml: _xml, xml_company_name: _name, request_fingerprint: _fingerprint, ...row }) => row);
  // One multi-row INSERT when every row names the same columns; otherwise one per job, because a
  // column one row leaves out would be written as NULL on SQLite (it has no DEFAULT in VALUES).
  const shape = (row: object) => Object.keys(row).sort().join(',');
  const groups = queued.every((row) => shape(row) === shape(queued[0]!)) ? [queued] : queued.map((row) => [row]);
  const inserted = await db.transaction().execute(async (trx) => {
    const rows: TransactionRow[] = [];
    for (const group of groups) {
      rows.push(
        ...(await trx
          .insertInto('transactions')
          .values(group)
          .onConflict((oc) => oc.columns(['company_id', 'client_transaction_id']).doNothing())
          .returningAll()
          .execute()),
      );
    }
    if (rows.length > 0) {
      const byJobId = new Map(jobs.map((job) => [job.job_id, job]));
      await trx
        .insertInto('transaction_documents')
        .values(
          rows.map((row) => {
            const job = byJobId.get(row.job_id)!;
            return { transaction_id: row.id, document: job.document, xml: job.xml, xml_company_name: job.xml_company_name, request_fingerprint: job.request_fingerprint ?? null };
          }),
        )
        .execute();
    }
    return new Map(rows.map((row) => [row.job_id, row]));
  });
  return jobs.map((job) => inserted.get(job.job_id));
}

/**
 * The job an earlier write with the same (company, transaction_id) made, for a job that was not
 * inserted: replayed when the bodies match, 409 when they differ.
 */
export async function earlierJob(db: Kysely<Database>, job: NewJob): Promise<TransactionRow> {
  const { fingerprint, ...existing } = await db
    .selectFrom('transactions')
    .leftJoin('transaction_documents', 'transaction_documents.transaction_id', 'transactions.id')
    .selectAll('transactions')
    .select('transaction_documents.request_fingerprint as fingerprint')
    .where('transactions.company_id', '=', job.company_id)
    .where('transactions.client_transaction_id', '=', job.client_transaction_id ?? '')
    .executeTakeFirstOrThrow();
  // A job accepted before fingerprints were kept (0260) has none: it replays, as it always did.
  if (fingerprint !== null && job.request_fingerprint != null && fingerprint !== job.request_fingerprint) {
    throw new AppError('idempotency_conflict', {
      message:
        `transaction_id "${existing.client_transaction_id ?? ''}" was already used in this company for job ${existing.job_id} with a different body; ` +
        'a repeat must send the same body (it then replays the first acceptance), a new write needs a new transaction_id',
      details: [{ field: 'transaction_id', message: `already used for job ${existing.job_id} with a different body` }],
    });
  }
  return existing;
}
