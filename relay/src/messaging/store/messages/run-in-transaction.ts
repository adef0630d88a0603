// Runs `work` in one transaction: a dispatch pass records all its outcomes in one commit, so a
// crash leaves either all of them or none.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/schema.js';

export function runInTransaction<T>(db: Kysely<Database>, work: (tx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(work);
}
