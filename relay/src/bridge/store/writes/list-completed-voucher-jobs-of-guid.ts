// The completed voucher jobs of a company that wrote one books voucher, oldest first: the first create
// gives the REMOTEID an alteration is sent under, the last write what the service last told the books.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export type VoucherJobFacts = { job_id: string; payload: string; books_master_id: string | null; completed_at: string | null };

export function listCompletedVoucherJobsOfGuid(db: Kysely<Database>, companyId: number, guid: string): Promise<VoucherJobFacts[]> {
  return db
    .selectFrom('transactions')
    .select(['job_id', 'payload', 'books_master_id', 'completed_at'])
    .where('company_id', '=', companyId)
    .where('job_type', '=', 'voucher')
    .where('status', '=', 'completed')
    .where('books_voucher_guid', '=', guid)
    .orderBy('id')
    .execute();
}
