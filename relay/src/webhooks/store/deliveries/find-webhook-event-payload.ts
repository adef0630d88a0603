// The exact JSON body of an event, read at send time so every attempt sends and signs the same bytes.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function findWebhookEventPayload(db: Kysely<Database>, eventId: string): Promise<string | undefined> {
  const row = await db.selectFrom('webhook_events').select('payload').where('id', '=', eventId).executeTakeFirst();
  return row?.payload;
}
