// Stores a new company with every pull and report switched off; the database assigns its integer id,
// which RETURNING gives back with the rest of the row.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { CompaniesTable } from '../../../db/bridge-tables.js';

export function insertCompany(
  db: Kysely<Database>,
  values: { application_id: string; name: string; customer_id: string | null },
  now: string,
): Promise<Selectable<CompaniesTable>> {
  return db
    .insertInto('companies')
    .values({ ...values, pull_masters: 0, report_stock: 0, report_gst: 0, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}
