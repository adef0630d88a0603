// Turns the connector online; true only for the call that did it, so exactly one process publishes
// connector.online when several race.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function markConnectorOnline(db: Kysely<Database>, connectorId: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('connectors')
    .set({ online: 1, updated_at: now })
    .where('id', '=', connectorId)
    .where('online', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
