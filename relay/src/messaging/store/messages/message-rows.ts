// The row types of messages and their timeline, and the executor their SQL runs on: below the
// repository and the SQL files it calls (claim-due-messages.ts, the operations in store/), so those
// need not import the repository that imports them.
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, MsgMessageEventsTable, MsgMessagesTable } from '../../../db/schema.js';

export type MessageRow = Selectable<MsgMessagesTable>;
export type TimelineRow = Selectable<MsgMessageEventsTable>;
export type Executor = Kysely<Database> | Transaction<Database>;
