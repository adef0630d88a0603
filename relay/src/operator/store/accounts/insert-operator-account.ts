// Stores a new operator account (its token only as a digest).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { OperatorAccountRow } from './operator-account-row.js';

export async function insertOperatorAccount(db: Kysely<Database>, row: OperatorAccountRow): Promise<void> {
  await db.insertInto('operator_accounts').values(row).execute();
}
