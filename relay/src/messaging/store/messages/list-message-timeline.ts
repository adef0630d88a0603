// A message's timeline in the order the relay recorded it (then by when each thing happened), so a
// late provider event shows where it arrived rather than where its clock puts it.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { TimelineRow } from './message-rows.js';

export function listMessageTimeline(db: Kysely<Database>, messageId: string): Promise<TimelineRow[]> {
  return db.selectFrom('msg_message_events').selectAll().where('message_id', '=', messageId).orderBy('recorded_at').orderBy('occurred_at').execute();
}
