// One customer by id, only when it belongs to the application: another application's customer reads as missing.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { CustomersTable } from '../../../db/bridge-tables.js';

export function findCustomerOfApplication(db: Kysely<Database>, applicationId: string, customerId: string): Promise<Selectable<CustomersTable> | undefined> {
  return db.selectFrom('customers').selectAll().where('id', '=', customerId).where('application_id', '=', applicationId).executeTakeFirst();
}
