// Changes a company's columns and stamps updated_at; answers the row as it now is, or undefined when
// no such company exists.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { CompaniesTable } from '../../../db/bridge-tables.js';

type CompanyRow = Selectable<CompaniesTable>;

export function updateCompany(
  db: Kysely<Database>,
  companyId: number,
  values: Partial<Omit<CompanyRow, 'id' | 'created_at' | 'updated_at'>>,
  now: string,
): Promise<CompanyRow | undefined> {
  return db
    .updateTable('companies')
    .set({ ...values, updated_at: now })
    .where('id', '=', companyId)
    .returningAll()
    .executeTakeFirst();
}
