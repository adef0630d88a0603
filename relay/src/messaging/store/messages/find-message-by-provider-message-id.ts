// The message a provider knows by its own id: how a provider event without our message id finds
// the message it is about.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { MessageRow } from './message-rows.js';

export function findMessageByProviderMessageId(db: Kysely<Database>, provider: string, providerMessageId: string): Promise<MessageRow | undefined> {
  return db.selectFrom('msg_messages').selectAll().where('provider', '=', provider).where('provider_message_id', '=', providerMessageId).executeTakeFirst();
}
