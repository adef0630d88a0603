// A message's attachments with their bytes, in order, for dispatch; a content already dropped
// (the message went final) comes back null.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export function listAttachmentsToSend(db: Kysely<Database>, messageId: string): Promise<{ filename: string; content_type: string; content_id: string | null; content: string | null }[]> {
  return db.selectFrom('msg_attachments').select(['filename', 'content_type', 'content_id', 'content']).where('message_id', '=', messageId).orderBy('position').execute();
}
