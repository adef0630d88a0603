// Customers oldest first (id breaks ties): an application's, or every one for support when no application is named.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { CustomersTable } from '../../../db/bridge-tables.js';

export function listCustomers(db: Kysely<Database>, applicationId: string | undefined): Promise<Selectable<CustomersTable>[]> {
  let query = db.selectFrom('customers').selectAll().orderBy('created_at').orderBy('id');
  if (applicationId !== undefined) query = query.where('application_id', '=', applicationId);
  return query.execute();
}
