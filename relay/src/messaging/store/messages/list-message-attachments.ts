// A message's attachments without their bytes (what the read model shows), in order: reading a
// message's status never loads its files.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export function listMessageAttachments(db: Kysely<Database>, messageId: string): Promise<{ filename: string; content_type: string; content_id: string | null; size: number }[]> {
  return db.selectFrom('msg_attachments').select(['filename', 'content_type', 'content_id', 'size']).where('message_id', '=', messageId).orderBy('position').execute();
}
