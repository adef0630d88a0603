// One message by its id (a status read, or a provider event that names the message).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { MessageRow } from './message-rows.js';

export function findMessage(db: Kysely<Database>, id: string): Promise<MessageRow | undefined> {
  return db.selectFrom('msg_messages').selectAll().where('id', '=', id).executeTakeFirst();
}
