// Adds a timeline entry and returns its id. With a provider event id, a repeat of the same event is
// ignored (unique index) and undefined comes back: a provider's retried webhook applies once.
import type { Executor } from './message-rows.js';
import { timelineRow, type TimelineEntry } from './timeline-row.js';

export async function addTimelineEntry(db: Executor, messageId: string, entry: TimelineEntry, recordedAt: string): Promise<string | undefined> {
  const inserted = await db
    .insertInto('msg_message_events')
    .values(timelineRow(messageId, entry, recordedAt))
    .onConflict((oc) => oc.columns(['provider', 'provider_event_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted?.id;
}
