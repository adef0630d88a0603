// Changes a timeline entry's type: an event that arrived out of order stays on the timeline, marked
// as not having moved the status.
import type { Executor } from './message-rows.js';

export async function retypeTimelineEntry(db: Executor, entryId: string, type: string): Promise<void> {
  await db.updateTable('msg_message_events').set({ type }).where('id', '=', entryId).execute();
}
