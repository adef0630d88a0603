// Keeps a job's XML as rendered for the books company's current name, so later claims of it (a retry)
// need not render it again.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function saveRenderedJobXml(db: Kysely<Database>, transactionId: number, xml: string, booksCompanyName: string): Promise<void> {
  await db.updateTable('transaction_documents').set({ xml, xml_company_name: booksCompanyName }).where('transaction_id', '=', transactionId).execute();
}
