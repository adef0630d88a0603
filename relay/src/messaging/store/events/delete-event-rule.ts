// Deletes an event rule; events already processed keep the results it produced.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function deleteEventRule(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('msg_event_rules').where('id', '=', id).execute();
}
