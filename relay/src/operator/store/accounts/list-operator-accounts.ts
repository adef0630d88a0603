// Every operator account, oldest first (a stable order for the listing).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { OperatorAccountRow } from './operator-account-row.js';

export async function listOperatorAccounts(db: Kysely<Database>): Promise<OperatorAccountRow[]> {
  return db.selectFrom('operator_accounts').selectAll().orderBy('created_at').orderBy('id').execute();
}
