// What the sync last pulled of one voucher (by company and GUID): the books' own view of its date,
// type, number and master id, which a cancel or delete must name.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export type PulledVoucherFacts = {
  voucher_date: string;
  voucher_type: string;
  voucher_kind: string;
  voucher_number: string | null;
  data: string;
  updated_at: string;
  deleted: number;
};

export function findPulledVoucherFacts(db: Kysely<Database>, companyId: number, guid: string): Promise<PulledVoucherFacts | undefined> {
  return db
    .selectFrom('pulled_vouchers')
    .select(['voucher_date', 'voucher_type', 'voucher_kind', 'voucher_number', 'data', 'updated_at', 'deleted'])
    .where('company_id', '=', companyId)
    .where('books_voucher_guid', '=', guid)
    .executeTakeFirst();
}
