// Pairs a company with a connector and books company in one transaction: the same books company on the
// same connector can back only one service company, so any other company holding it is unpaired first.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { CompaniesTable } from '../../../db/bridge-tables.js';

export function pairCompany(
  db: Kysely<Database>,
  companyId: number,
  pairing: { connector_id: string; books_company_guid: string; books_company_name?: string | null },
  now: string,
): Promise<Selectable<CompaniesTable> | undefined> {
  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable('companies')
      .set({ connector_id: null, books_company_guid: null, books_company_name: null, paired_at: null, updated_at: now })
      .where('connector_id', '=', pairing.connector_id)
      .where('books_company_guid', '=', pairing.books_company_guid)
      .where('id', '!=', companyId)
      .execute();
    return trx
      .updateTable('companies')
      .set({
        connector_id: pairing.connector_id,
        books_company_guid: pairing.books_company_guid,
        books_company_name: pairing.books_company_name ?? null,
        paired_at: now,
        updated_at: now,
      })
      .where('id', '=', companyId)
      .returningAll()
      .executeTakeFirst();
  });
}
