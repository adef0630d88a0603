// The customers whose token starts with this lookup prefix: the caller compares hashes in constant
// time, so the prefix only narrows the search and never decides a match.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { CustomersTable } from '../../../db/bridge-tables.js';

export function findCustomersByTokenPrefix(db: Kysely<Database>, tokenPrefix: string): Promise<Selectable<CustomersTable>[]> {
  return db.selectFrom('customers').selectAll().where('token_prefix', '=', tokenPrefix).execute();
}
