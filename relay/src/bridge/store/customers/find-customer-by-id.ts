// One customer by id under any application: support's view (operator API, admin CLI).
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { CustomersTable } from '../../../db/bridge-tables.js';

export function findCustomerById(db: Kysely<Database>, customerId: string): Promise<Selectable<CustomersTable> | undefined> {
  return db.selectFrom('customers').selectAll().where('id', '=', customerId).executeTakeFirst();
}
