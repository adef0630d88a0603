// Pulled vouchers of these companies counted by status and deletion, with the latest change of each
// group: grouped in SQL so the console never reads the vouchers themselves.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export async function countPulledVouchers(db: Kysely<Database>, companyIds: readonly number[]) {
  return db
    .selectFrom('pulled_vouchers')
    .select((eb) => [
      'company_id',
      'status',
      'deleted',
      eb.fn.countAll<string | number>().as('count'),
      eb.fn.max('updated_at').as('last_at'),
    ])
    .where('company_id', 'in', [...companyIds])
    .groupBy(['company_id', 'status', 'deleted'])
    .execute();
}
