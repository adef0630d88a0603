// Several timeline entries in one statement: a dispatch pass's attempts, recorded together rather
// than one insert per message.
import type { Executor } from './message-rows.js';
import { timelineRow, type TimelineEntry } from './timeline-row.js';

export async function addTimelineEntries(db: Executor, entries: readonly { messageId: string; entry: TimelineEntry }[], recordedAt: string): Promise<void> {
  if (entries.length === 0) return;
  await db
    .insertInto('msg_message_events')
    .values(entries.map(({ messageId, entry }) => timelineRow(messageId, entry, recordedAt)))
    .execute();
}
