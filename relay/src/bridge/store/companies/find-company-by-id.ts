// One company row by its service id, or undefined; shared by the repository and the key's ownership check.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { CompaniesTable } from '../../../db/bridge-tables.js';

export function findCompanyById(db: Kysely<Database>, companyId: number): Promise<Selectable<CompaniesTable> | undefined> {
  return db.selectFrom('companies').selectAll().where('id', '=', companyId).executeTakeFirst();
}
