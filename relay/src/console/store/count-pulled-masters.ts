// Pulled masters of these companies counted by deletion, with the latest change of each group: grouped
// in SQL so the console never reads the masters themselves.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export async function countPulledMasters(db: Kysely<Database>, companyIds: readonly number[]) {
  return db
    .selectFrom('pulled_masters')
    .select((eb) => ['company_id', 'deleted', eb.fn.countAll<string | number>().as('count'), eb.fn.max('updated_at').as('last_at')])
    .where('company_id', 'in', [...companyIds])
    .groupBy(['company_id', 'deleted'])
    .execute();
}
