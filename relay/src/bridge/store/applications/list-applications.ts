// Every application, oldest first (id breaks ties), for the operator's list.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ApplicationsTable } from '../../../db/bridge-tables.js';

export function listApplications(db: Kysely<Database>): Promise<Selectable<ApplicationsTable>[]> {
  return db.selectFrom('applications').selectAll().orderBy('created_at').orderBy('id').execute();
}
