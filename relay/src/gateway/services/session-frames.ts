// The frames a connector session sends and reads, as plain mappings: a claimed job as the connector
// receives it, a pairing as it is announced, a reported outcome as the relay records it, and the id a
// refusal refers to.
import type { ClientMessage, JobResultMessage } from '@ledgerwire/shared';
import type { JobOutcomeReport } from '../../bridge/store/jobs/record-outcomes.js';
import type { GatewayClaimedJob, GatewayPairedCompany } from './gateway-ports.js';

export function assignedJob(job: GatewayClaimedJob) {
  return {
    job_id: job.job_id,
    company_id: job.company_id,
    books_company_guid: job.books_company_guid,
    books_company_name: job.books_company_name,
    job_type: job.job_type,
    event_type: job.event_type,
    xml: job.xml,
    remote_id: job.remote_id,
    books_voucher_guid: job.books_voucher_guid,
    attempt: job.retry_count + 1,
    lease_expires_at: job.lease_expires_at,
  };
}

export function pairedOut(c: GatewayPairedCompany) {
  return { company_id: c.company_id, books_company_guid: c.books_company_guid, books_company_name: c.books_company_name };
}

export function samePairings(a: readonly GatewayPairedCompany[], b: readonly GatewayPairedCompany[]): boolean {
  const key = (list: readonly GatewayPairedCompany[]) => JSON.stringify(list.map(pairedOut));
  return key(a) === key(b);
}

/** A job's outcome as the connector reports it, in job.result or in jobs.result. */
export type JobOutcomeIn = Pick<JobResultMessage, 'job_id' | 'outcome'>;

export function outcomeReport({ job_id, outcome }: JobOutcomeIn): JobOutcomeReport {
  return { job_id, ...outcome };
}

export function refOf(message: ClientMessage): string | null {
  if (message.type === 'job.result') return message.job_id;
  if (message.type === 'sync.batch') return message.batch_id;
  return null;
}
