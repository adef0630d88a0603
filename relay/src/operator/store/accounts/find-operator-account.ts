// An operator account by id, revoked or not (the admin commands show either).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { OperatorAccountRow } from './operator-account-row.js';

export async function findOperatorAccount(db: Kysely<Database>, id: string): Promise<OperatorAccountRow | undefined> {
  return db.selectFrom('operator_accounts').selectAll().where('id', '=', id).executeTakeFirst();
}
