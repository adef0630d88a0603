// What the receiver answered on each webhook attempt, besides its status: the start of the response
// body (a few KB at most), so support can read an endpoint's reply in the console as Svix shows it.
// The request body needs no column: it is the event's payload (webhook_events), the same bytes on
// every attempt. Attempts recorded before this migration have no response body (null).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_attempts').addColumn('response_body', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_attempts').dropColumn('response_body').execute();
}
