// Marks masters gone from the books as deleted (kept, but left out of lists), 500 GUIDs a statement
// so a large batch stays under every database's parameter limit.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function markPulledMastersDeleted(db: Kysely<Database>, companyId: number, guids: readonly string[], now: string): Promise<void> {
  for (let i = 0; i < guids.length; i += 500) {
    await db
      .updateTable('pulled_masters')
      .set({ deleted: 1, updated_at: now })
      .where('company_id', '=', companyId)
      .where('books_master_guid', 'in', guids.slice(i, i + 500))
      .execute();
  }
}
