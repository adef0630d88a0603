// `transaction.completed` and `transaction.failed` webhooks: raised in the same database transaction
// that settles the job (record-outcomes.ts, requeue-jobs.ts), through the webhook engine's outbox, so
// each terminal outcome is announced exactly once — a crash before the commit raises nothing and the
// retried report raises it then; a repeated report settles nothing and raises nothing. The one job
// that can be announced twice is one the relay failed as CONNECTOR_OFFLINE and its connector later
// reports booked: that is a second outcome (failed, then completed), and both are told.
// `data` is the transaction as GET /api/v1/transactions/{job} shows it, plus `company_id`.
import { TRANSACTION_EVENT_TYPES, type TransactionEventData } from '@ledgerwire/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { anySubscribed, queueEventsInTransaction, type OutboxEvent } from '../../../webhooks/services/webhook-outbox.js';
import { withPulledBooksIds } from './pulled-books-ids.js';
import { transactionRecord } from './transaction-record.js';
import { listTransactionsByJobIds } from './list-transactions-by-job-ids.js';

export type SettledJob = Readonly<{ job_id: string; application_id: string }>;

/**
 * Queues the outcome events of jobs just settled in `trx`; returns the number of deliveries queued.
 * Costs one query when no endpoint of their applications listens for them.
 */
export async function queueTransactionOutcomeEvents(trx: Kysely<Database>, settled: readonly SettledJob[], now: string): Promise<number> {
  if (settled.length === 0) return 0;
  const owners = [...new Set(settled.map((job) => job.application_id))].map((id) => ({ kind: 'application' as const, id }));
  if (!(await anySubscribed(trx, owners, TRANSACTION_EVENT_TYPES))) return 0;
  const rows = await listTransactionsByJobIds(trx, settled.map((job) => job.job_id));
  const events: OutboxEvent[] = [];
  for (const row of await withPulledBooksIds(trx, rows)) {
    if (row.status !== 'completed' && row.status !== 'failed') continue;
    const { waiting_reason: _none, ...record } = transactionRecord(row);
    const data: TransactionEventData = { company_id: row.company_id, ...record };
    events.push({ owner: { kind: 'application', id: row.application_id }, type: row.status === 'completed' ? 'transaction.completed' : 'transaction.failed', data });
  }
  return queueEventsInTransaction(trx, events, now);
}
