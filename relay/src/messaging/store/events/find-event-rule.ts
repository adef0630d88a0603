// One event rule by id, scoped to its tenant so a tenant never reaches another's rule.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { EventRuleRow } from './event-rows.js';

export function findEventRule(db: Kysely<Database>, tenantId: string, id: string): Promise<EventRuleRow | undefined> {
  return db.selectFrom('msg_event_rules').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}
