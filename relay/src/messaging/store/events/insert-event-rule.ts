// Stores a new event rule (which event sends which template); the rule service builds the row.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { EventRuleRow } from './event-rows.js';

export async function insertEventRule(db: Kysely<Database>, row: EventRuleRow): Promise<void> {
  await db.insertInto('msg_event_rules').values(row).execute();
}
