// One pulled voucher by its transaction_id among the caller's companies, deleted ones included: the
// caller may still hold the key of a voucher since removed from the books.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { sourceJobIdColumn, type PulledVoucherWithSource } from './source-job-id-column.js';

export function findPulledVoucherByTransactionId(db: Kysely<Database>, companyIds: readonly number[], transactionId: string): Promise<PulledVoucherWithSource | undefined> {
  return db
    .selectFrom('pulled_vouchers')
    .selectAll('pulled_vouchers')
    .select(sourceJobIdColumn)
    .where('transaction_id', '=', transactionId)
    .where('company_id', 'in', [...companyIds])
    .executeTakeFirst();
}
