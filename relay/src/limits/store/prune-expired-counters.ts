// Deletes counters whose window has ended, so the table holds only live windows; answers how many.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export async function pruneExpiredCounters(db: Kysely<Database>, nowMs: number): Promise<number> {
  const result = await db.deleteFrom('rate_limit_counters').where('expires_at', '<', nowMs).executeTakeFirst();
  return Number(result.numDeletedRows);
}
