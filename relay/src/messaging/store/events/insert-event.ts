// Queues an ingested business event (pending) for the event worker; takes a transaction so that
// ingestion can store it together with its count against the tenant's event limit.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { EventRow } from './event-rows.js';

export async function insertEvent(db: Kysely<Database> | Transaction<Database>, row: EventRow): Promise<void> {
  await db.insertInto('msg_events').values(row).execute();
}
