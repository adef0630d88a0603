// How many live pulled vouchers a company has per kind and status, with the latest update of each
// group, in an optional compact (YYYYMMDD) date range inclusive at both ends: the statistics' voucher part.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export type VoucherCountRow = { voucher_kind: string; status: 'pending' | 'acknowledged'; n: number; last: string | null };

export async function countPulledVouchersByKindAndStatus(
  db: Kysely<Database>,
  companyId: number,
  range: { start?: string | undefined; end?: string | undefined },
): Promise<VoucherCountRow[]> {
  let vouchers = db.selectFrom('pulled_vouchers').where('company_id', '=', companyId).where('deleted', '=', 0);
  if (range.start) vouchers = vouchers.where('voucher_date', '>=', range.start);
  if (range.end) vouchers = vouchers.where('voucher_date', '<=', range.end);
  return vouchers
    .select(['voucher_kind', 'status', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.max('updated_at').as('last')])
    .groupBy(['voucher_kind', 'status'])
    .execute();
}
