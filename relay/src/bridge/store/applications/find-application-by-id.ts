// One application by id, or undefined: the check that an application exists before its keys are touched.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ApplicationsTable } from '../../../db/bridge-tables.js';

export function findApplicationById(db: Kysely<Database>, id: string): Promise<Selectable<ApplicationsTable> | undefined> {
  return db.selectFrom('applications').selectAll().where('id', '=', id).executeTakeFirst();
}
