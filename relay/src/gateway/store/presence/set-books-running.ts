// Records whether the books run; true only when this call changed it, so books.started/stopped is
// published once.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function setBooksRunning(db: Kysely<Database>, connectorId: string, running: boolean, now: string): Promise<boolean> {
  const result = await db
    .updateTable('connectors')
    .set({ books_running: running ? 1 : 0, updated_at: now })
    .where('id', '=', connectorId)
    .where('books_running', '=', running ? 0 : 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
