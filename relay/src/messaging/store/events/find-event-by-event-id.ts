// A tenant's event by the event_id it sent: a repeated event_id is a duplicate, answered without
// storing or counting it again.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { EventRow } from './event-rows.js';

export function findEventByEventId(db: Kysely<Database>, tenantId: string, eventId: string): Promise<EventRow | undefined> {
  return db.selectFrom('msg_events').selectAll().where('tenant_id', '=', tenantId).where('event_id', '=', eventId).executeTakeFirst();
}
