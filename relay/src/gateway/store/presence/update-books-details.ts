// The connector's latest report of its books product and open companies (no event: details only).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { OpenCompany } from './opened-session-columns.js';

export async function updateBooksDetails(
  db: Kysely<Database>,
  connectorId: string,
  input: { booksProduct: string | null; openCompanies: readonly OpenCompany[]; now: string },
): Promise<void> {
  await db
    .updateTable('connectors')
    .set({ books_product: input.booksProduct, open_companies: JSON.stringify(input.openCompanies), last_seen_at: input.now, updated_at: input.now })
    .where('id', '=', connectorId)
    .execute();
}
