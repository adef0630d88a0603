// The fingerprint of each write's body (SHA-256 of its canonical JSON), kept with its document: a repeat
// of the caller's own transaction_id replays the first acceptance only when the body is the same; with a
// different body it is a 409, as the messaging API answers. Jobs accepted before this migration have
// none, and a repeat of one of those replays as it always did (there is nothing to compare).
// Adding a nullable column is a catalogue change on both databases: no table rewrite, safe under load.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('transaction_documents').addColumn('request_fingerprint', 'varchar(64)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('transaction_documents').dropColumn('request_fingerprint').execute();
}
