// Companies by id, narrowed by any of application, customer and connector (each filter only when given).
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { CompaniesTable } from '../../../db/bridge-tables.js';

export function listCompanies(
  db: Kysely<Database>,
  filter: { applicationId?: string; customerId?: string; connectorId?: string },
): Promise<Selectable<CompaniesTable>[]> {
  let query = db.selectFrom('companies').selectAll().orderBy('id');
  if (filter.applicationId !== undefined) query = query.where('application_id', '=', filter.applicationId);
  if (filter.customerId !== undefined) query = query.where('customer_id', '=', filter.customerId);
  if (filter.connectorId !== undefined) query = query.where('connector_id', '=', filter.connectorId);
  return query.execute();
}
