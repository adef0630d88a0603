// The books ids the sync pulled for these vouchers (by company and GUID) in one read for a page of
// transactions. The stored document, which alone carries the master id, is read only for the GUIDs
// listed in `documentFor` (rows lacking one); the others get null in `data`.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export type PulledVoucherBooksIds = { company_id: number; books_voucher_guid: string; alter_id: string; voucher_number: string | null; data: string | null };

export function listPulledVoucherBooksIds(
  db: Kysely<Database>,
  wanted: { companyIds: readonly number[]; guids: readonly string[]; documentFor: readonly string[] },
): Promise<PulledVoucherBooksIds[]> {
  const lacking = [...wanted.documentFor];
  return db
    .selectFrom('pulled_vouchers')
    .select(['company_id', 'books_voucher_guid', 'alter_id', 'voucher_number'])
    .select((eb) =>
      lacking.length > 0 ? eb.case().when('books_voucher_guid', 'in', lacking).then(eb.ref('data')).else(null).end().as('data') : sql<string | null>`null`.as('data'),
    )
    .where('company_id', 'in', [...wanted.companyIds])
    .where('books_voucher_guid', 'in', [...wanted.guids])
    .execute();
}
