// A tenant's event rules, oldest first (ties by id), so listings are stable between calls.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { EventRuleRow } from './event-rows.js';

export function listEventRules(db: Kysely<Database>, tenantId: string): Promise<EventRuleRow[]> {
  return db.selectFrom('msg_event_rules').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').orderBy('id').execute();
}
