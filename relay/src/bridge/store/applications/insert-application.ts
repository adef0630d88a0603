// Stores a new application (a caller of the bridge API); the service picks its id and creation time.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ApplicationsTable } from '../../../db/bridge-tables.js';

export async function insertApplication(db: Kysely<Database>, row: ApplicationsTable): Promise<void> {
  await db.insertInto('applications').values(row).execute();
}
