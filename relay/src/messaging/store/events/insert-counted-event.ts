// Stores an ingested event and counts it against the tenant's event limit in one transaction: an
// event over the limit (`count` throws) is not kept, and a kept one is always counted.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { EventRow } from './event-rows.js';
import { insertEvent } from './insert-event.js';

export async function insertCountedEvent(db: Kysely<Database>, row: EventRow, count: (tx: Transaction<Database>) => Promise<void>): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await insertEvent(tx, row);
    await count(tx);
  });
}
