// Whether the sync pulled a voucher of the company with this books GUID (deleted ones included): the
// other way a reference is recognised as a GUID the service has seen.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function pulledVoucherWithGuidExists(db: Kysely<Database>, companyId: number, guid: string): Promise<boolean> {
  const row = await db.selectFrom('pulled_vouchers').select('books_voucher_guid').where('company_id', '=', companyId).where('books_voucher_guid', '=', guid).executeTakeFirst();
  return row !== undefined;
}
