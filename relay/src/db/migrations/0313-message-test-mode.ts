// Test mode (issue 34): a message sent with a tenant's test key is marked, so the dispatch worker
// gives it only to the outbox and simulates its provider events.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('msg_messages').addColumn('test_mode', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('msg_messages').dropColumn('test_mode').execute();
}
