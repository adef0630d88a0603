// One page of a company's live pulled vouchers by date (id breaks ties), with the total the filter
// matches; dates are compact (YYYYMMDD) and inclusive at both ends.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { PulledVouchersTable } from '../../../db/bridge-tables.js';
import { sourceJobIdColumn, type PulledVoucherWithSource } from './source-job-id-column.js';

export type PulledVoucherFilter = Readonly<{
  voucher_kind?: string | undefined;
  voucher_type?: string | undefined;
  status?: PulledVouchersTable['status'] | undefined;
  start?: string | undefined;
  end?: string | undefined;
  limit: number;
  offset: number;
}>;

export async function listPulledVouchers(db: Kysely<Database>, companyId: number, filter: PulledVoucherFilter): Promise<{ total: number; rows: PulledVoucherWithSource[] }> {
  let base = db.selectFrom('pulled_vouchers').where('company_id', '=', companyId).where('deleted', '=', 0);
  if (filter.voucher_kind) base = base.where('voucher_kind', '=', filter.voucher_kind);
  if (filter.voucher_type) base = base.where('voucher_type', '=', filter.voucher_type);
  if (filter.status) base = base.where('status', '=', filter.status);
  if (filter.start) base = base.where('voucher_date', '>=', filter.start);
  if (filter.end) base = base.where('voucher_date', '<=', filter.end);
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base.selectAll('pulled_vouchers').select(sourceJobIdColumn).orderBy('voucher_date').orderBy('id').limit(filter.limit).offset(filter.offset).execute();
  return { total: Number(total), rows };
}
