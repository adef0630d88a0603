// The rules the event worker applies to an event: the tenant's active ones for its name, oldest
// first, so an event's sends happen in the order the rules were made.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { EventRuleRow } from './event-rows.js';

export function listActiveEventRules(db: Kysely<Database>, tenantId: string, eventName: string): Promise<EventRuleRow[]> {
  return db
    .selectFrom('msg_event_rules')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('event_name', '=', eventName)
    .where('is_active', '=', 1)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
