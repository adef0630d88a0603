// Puts interrupted jobs back in the queue: those leased to a connector that dropped, or whose lease
// ran out. Each return costs one retry; a job past its max_retries fails with CONNECTOR_OFFLINE (which a
// later outcome from the connector replaces, see record-outcomes.ts). Jobs handed back because this
// relay process is shutting down cost none: the connector did nothing wrong. A job failed here raises
// its transaction.failed webhook in the same transaction (transaction-outcome-events.ts).
import { jobErrorLabel } from '@ledgerwire/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { queueTransactionOutcomeEvents, type SettledJob } from './transaction-outcome-events.js';
import { connectorHoldsProcessingJobs } from './connector-holds-processing-jobs.js';

export type RequeueResult = Readonly<{ requeued: number; failed: number; companyIds: number[]; webhookDeliveries: number }>;

export async function requeueJobs(
  db: Kysely<Database>,
  which: { connectorId: string } | { leaseExpiredBefore: string },
  now: string,
  options: { countRetry: boolean } = { countRetry: true },
): Promise<RequeueResult> {
  // A job claimed for the connector after this read is in the same place as one claimed after the
  // transaction's own read: a later requeue or its lease expiry returns it.
  if ('connectorId' in which && !(await connectorHoldsProcessingJobs(db, which.connectorId))) return { requeued: 0, failed: 0, companyIds: [], webhookDeliveries: 0 };
  return db.transaction().execute(async (trx) => {
    let query = trx
      .selectFrom('transactions')
      .select(['id', 'job_id', 'application_id', 'company_id', 'retry_count', 'max_retries', 'lease_expires_at'])
      .where('status', '=', 'processing');
    query = 'connectorId' in which
      ? query.where('connector_id', '=', which.connectorId)
      : query.where('lease_expires_at', '<', which.leaseExpiredBefore);
    let requeued = 0;
    const failed: SettledJob[] = [];
    const companyIds = new Set<number>();
    for (const job of await query.orderBy('id').execute()) {
      const retries = options.countRetry ? job.retry_count + 1 : job.retry_count;
      const exhausted = retries > job.max_retries;
      const update = trx
        .updateTable('transactions')
        .where('id', '=', job.id)
        .where('status', '=', 'processing')
        .where((eb) => (job.lease_expires_at === null ? eb('lease_expires_at', 'is', null) : eb('lease_expires_at', '=', job.lease_expires_at)));
      const result = exhausted
        ? await update
            .set({
              status: 'failed',
              error_code: 'CONNECTOR_OFFLINE',
              error_label: jobErrorLabel('CONNECTOR_OFFLINE'),
              error_message: `The connector went offline during the import ${job.max_retries + 1} times. If it still holds the voucher and books it later, this transaction turns completed: check before sending the voucher again`,
              books_voucher_guid: null,
              lease_expires_at: null,
              lease_session: null,
              completed_at: now,
              updated_at: now,
            })
            .executeTakeFirst()
        : await update.set({ status: 'queued', retry_count: retries, lease_expires_at: null, lease_session: null, updated_at: now }).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) continue;
      if (exhausted) failed.push({ job_id: job.job_id, application_id: job.application_id });
      else {
        requeued += 1;
        companyIds.add(job.company_id);
      }
    }
    const webhookDeliveries = await queueTransactionOutcomeEvents(trx, failed, now);
    return { requeued, failed: failed.length, companyIds: [...companyIds], webhookDeliveries };
  });
}
