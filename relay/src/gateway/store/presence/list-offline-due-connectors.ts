// Connectors published online that are gone for good: disconnected before the grace cutoff, or still
// marked connected but silent since the stale cutoff (their relay process died).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { offlineDue } from './offline-due.js';

export async function listOfflineDueConnectors(db: Kysely<Database>, graceCutoff: string, staleCutoff: string): Promise<string[]> {
  const rows = await db
    .selectFrom('connectors')
    .select('id')
    .where((eb) => offlineDue(eb, graceCutoff, staleCutoff))
    .execute();
  return rows.map((r) => r.id);
}
