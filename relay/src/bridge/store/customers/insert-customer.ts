// Stores a new customer with its token's lookup prefix and SHA-256 (the token itself is never stored).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { CustomersTable } from '../../../db/bridge-tables.js';

export async function insertCustomer(db: Kysely<Database>, row: CustomersTable): Promise<void> {
  await db.insertInto('customers').values(row).execute();
}
