// Removes the bytes of final messages' attachments, which are never sent again; their name, type
// and size stay for the read model.
import type { Executor } from './message-rows.js';

export async function dropAttachmentContent(db: Executor, messageIds: readonly string[]): Promise<void> {
  if (messageIds.length === 0) return;
  await db.updateTable('msg_attachments').set({ content: null }).where('message_id', 'in', messageIds).where('content', 'is not', null).execute();
}
