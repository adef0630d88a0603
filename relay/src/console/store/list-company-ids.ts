// The ids of an application's companies (or of every application's), in id order: the rows the pulled
// counts are reported for, zeros included.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export async function listCompanyIds(db: Kysely<Database>, applicationId: string | undefined): Promise<number[]> {
  let companies = db.selectFrom('companies').select('id').orderBy('id');
  if (applicationId !== undefined) companies = companies.where('application_id', '=', applicationId);
  return (await companies.execute()).map((row) => row.id);
}
