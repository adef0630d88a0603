// The books GUID a completed voucher job of the company booked, found by its job id or the caller's own
// transaction id: a write may name its target by the transaction that created it.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function findGuidOfCompletedVoucherJob(db: Kysely<Database>, companyId: number, reference: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('transactions')
    .select('books_voucher_guid')
    .where('company_id', '=', companyId)
    .where('job_type', '=', 'voucher')
    .where('status', '=', 'completed')
    .where((eb) => eb.or([eb('job_id', '=', reference), eb('client_transaction_id', '=', reference)]))
    .executeTakeFirst();
  return row?.books_voucher_guid ?? undefined;
}
