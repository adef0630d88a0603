// The `source_job_id` column that pulled-voucher reads add: the first voucher job of the voucher's
// company whose outcome carried its GUID (the books read REMOTEID back as the GUID itself, so the key
// the connector sent cannot link them). Shared by the list and the single read.
import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { PulledVouchersTable } from '../../../db/bridge-tables.js';

export type PulledVoucherWithSource = Selectable<PulledVouchersTable> & { source_job_id: string | null };

export function sourceJobIdColumn(eb: ExpressionBuilder<Database, 'pulled_vouchers'>) {
  return eb
    .selectFrom('transactions as t')
    .select('t.job_id')
    .whereRef('t.company_id', '=', 'pulled_vouchers.company_id')
    .whereRef('t.books_voucher_guid', '=', 'pulled_vouchers.books_voucher_guid')
    .where('t.job_type', '=', 'voucher')
    .orderBy('t.id')
    .limit(1)
    .as('source_job_id');
}
