// Changes an event rule; its id, tenant and creation time never change.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { EventRuleRow } from './event-rows.js';

export async function updateEventRule(db: Kysely<Database>, id: string, changes: Partial<Omit<EventRuleRow, 'id' | 'tenant_id' | 'created_at'>>): Promise<void> {
  await db.updateTable('msg_event_rules').set(changes).where('id', '=', id).execute();
}
