// A tenant's message by its business-event id: how a repeated send is recognised and answered
// with the message already stored.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { MessageRow } from './message-rows.js';

export function findMessageByBusinessId(db: Kysely<Database>, tenantId: string, businessEventId: string): Promise<MessageRow | undefined> {
  return db.selectFrom('msg_messages').selectAll().where('tenant_id', '=', tenantId).where('business_event_id', '=', businessEventId).executeTakeFirst();
}
