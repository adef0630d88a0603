// The document a transaction was submitted with and the XML rendered from it, for support's view;
// kept in their own table so the queue rows stay small.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export function findTransactionDocument(db: Kysely<Database>, transactionId: number): Promise<{ document: string; xml: string } | undefined> {
  return db.selectFrom('transaction_documents').select(['document', 'xml']).where('transaction_id', '=', transactionId).executeTakeFirst();
}
