// Turns a connector offline if it is still due to be; true only for the call that did it, so exactly one
// process publishes connector.offline.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { offlineDue } from './offline-due.js';

export async function markConnectorOffline(db: Kysely<Database>, connectorId: string, graceCutoff: string, staleCutoff: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('connectors')
    .set({ online: 0, connected: 0, updated_at: now })
    .where('id', '=', connectorId)
    .where((eb) => offlineDue(eb, graceCutoff, staleCutoff))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
