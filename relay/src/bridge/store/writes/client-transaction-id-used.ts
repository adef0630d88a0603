// Whether the company already has a transaction under the caller's own id: a repeated write replays
// as it was and skips the checks a new alteration needs.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function clientTransactionIdUsed(db: Kysely<Database>, companyId: number, transactionId: string): Promise<boolean> {
  const earlier = await db.selectFrom('transactions').select('id').where('company_id', '=', companyId).where('client_transaction_id', '=', transactionId).executeTakeFirst();
  return earlier !== undefined;
}
