// A company's live voucher types as pulled from the books, with each one's reserved name and parent:
// enough to walk a custom type up to the built-in type its voucher kind comes from.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export type VoucherTypeRow = { name: string; reserved_name: string | null; parent: string | null };

export function listVoucherTypesOfCompany(db: Kysely<Database>, companyId: number): Promise<VoucherTypeRow[]> {
  return db
    .selectFrom('pulled_masters')
    .select(['name', 'reserved_name', 'parent'])
    .where('company_id', '=', companyId)
    .where('master_type', '=', 'voucher_type')
    .where('deleted', '=', 0)
    .execute();
}
