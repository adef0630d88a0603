// The oldest queued or processing job of each of these companies (one row per company that has any):
// a company's queue waits for whatever its oldest unfinished job waits for.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function listOldestUnfinishedJobIds(db: Kysely<Database>, companyIds: readonly number[]): Promise<number[]> {
  const oldest = await db
    .selectFrom('transactions')
    .select((eb) => eb.fn.min('id').as('id'))
    .where('company_id', 'in', [...new Set(companyIds)])
    .where('status', 'in', ['queued', 'processing'])
    .groupBy('company_id')
    .execute();
  return oldest.map((row) => Number(row.id));
}
