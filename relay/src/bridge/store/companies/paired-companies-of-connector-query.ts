// The companies paired through one connector, as a query built once and executed many times: every
// connector's hello reads it (ten thousand at once after a relay restart; see reusable-query.ts).
import type { Kysely, Selectable } from 'kysely';
import { ReusableQuery } from '../../../db/reusable-query.js';
import type { Database } from '../../../db/schema.js';
import type { CompaniesTable } from '../../../db/bridge-tables.js';

export type PairedCompanyColumns = Pick<Selectable<CompaniesTable>, 'id' | 'books_company_guid' | 'books_company_name' | 'application_id' | 'name'>;

/** Built once by its owner, which keeps it and executes it with each connector id (the build is the costly part). */
export function pairedCompaniesOfConnectorQuery(db: Kysely<Database>): ReusableQuery<{ connectorId: string }, PairedCompanyColumns> {
  return new ReusableQuery((values: { connectorId: string }) =>
    db
      .selectFrom('companies')
      .select(['id', 'books_company_guid', 'books_company_name', 'application_id', 'name'])
      .where('connector_id', '=', values.connectorId)
      .where('books_company_guid', 'is not', null)
      .orderBy('id'),
  );
}
