// How many live pulled masters a company has of each type: the statistics' master part.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export function countPulledMastersByType(db: Kysely<Database>, companyId: number): Promise<{ master_type: string; n: number }[]> {
  return db
    .selectFrom('pulled_masters')
    .select(['master_type', (eb) => eb.fn.countAll<number>().as('n')])
    .where('company_id', '=', companyId)
    .where('deleted', '=', 0)
    .groupBy('master_type')
    .execute();
}
