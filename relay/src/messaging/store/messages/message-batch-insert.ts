// One INSERT for a batch of new messages, skipping those already stored and returning the ids of
// those inserted: store/messages/insert-new-messages.ts. The statements it builds, one per batch
// size, stay in this class so that each is built once and reused for every later batch.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { insertNewMessages, type NewMessagesStatements } from './insert-new-messages.js';
import type { Executor, MessageRow } from './message-repository.js';

export class MessageBatchInsert {
  /** The statement by row count; batches are capped, so this holds at most that many. */
  private readonly byRowCount: NewMessagesStatements = new Map();

  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts the rows that are new; returns the ids of those inserted. */
  insertNew(rows: readonly MessageRow[], executor: Executor): Promise<Set<string>> {
    return insertNewMessages(this.db, executor, rows, this.byRowCount);
  }
}
