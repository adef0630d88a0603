// Whether any voucher job of the company (in any status) carries this books GUID: one of two ways a
// reference is recognised as a GUID the service has seen.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function voucherJobWithGuidExists(db: Kysely<Database>, companyId: number, guid: string): Promise<boolean> {
  const row = await db
    .selectFrom('transactions')
    .select('books_voucher_guid')
    .where('company_id', '=', companyId)
    .where('job_type', '=', 'voucher')
    .where('books_voucher_guid', '=', guid)
    .executeTakeFirst();
  return row !== undefined;
}
