// The paired companies of many connectors in one statement: the gateway's periodic pass over every
// session would otherwise cost one read a connector.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { CompaniesTable } from '../../../db/bridge-tables.js';

export type PairedCompanyOfConnector = Pick<
  Selectable<CompaniesTable>,
  'id' | 'connector_id' | 'books_company_guid' | 'books_company_name' | 'application_id' | 'name'
>;

export function listPairedCompaniesOfConnectors(db: Kysely<Database>, connectorIds: readonly string[]): Promise<PairedCompanyOfConnector[]> {
  return db
    .selectFrom('companies')
    .select(['id', 'connector_id', 'books_company_guid', 'books_company_name', 'application_id', 'name'])
    .where('connector_id', 'in', [...connectorIds])
    .where('books_company_guid', 'is not', null)
    .orderBy('id')
    .execute();
}
