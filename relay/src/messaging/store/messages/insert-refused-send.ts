// Notes one refused send for support to see in the console (issue 33); the caller builds the note
// and swallows a failure, so a note never changes the answer the sender gets.
import type { Kysely } from 'kysely';
import type { Database, MsgRefusedSendsTable } from '../../../db/schema.js';

export async function insertRefusedSend(db: Kysely<Database>, row: MsgRefusedSendsTable): Promise<void> {
  await db.insertInto('msg_refused_sends').values(row).execute();
}
