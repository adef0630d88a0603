// Sends the relay refused after authenticating them (issue 33: support sees refused sends, with their
// reason, in the console): an invalid template, a subject or body that renders empty, a bad attachment,
// a reused transaction_id. Nothing else of a refused send is stored; rows older than 7 days are pruned.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('msg_refused_sends')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(40)', (c) => c.notNull().references('msg_tenants.id'))
    .addColumn('code', 'varchar(60)', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('event_key', 'varchar(100)')
    .addColumn('channel', 'varchar(20)')
    .addColumn('to_address', 'varchar(320)')
    .addColumn('transaction_id', 'varchar(150)')
    .addColumn('refused_at', 'varchar(40)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('msg_refused_sends_by_tenant').on('msg_refused_sends').columns(['tenant_id', 'refused_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('msg_refused_sends').execute();
}
