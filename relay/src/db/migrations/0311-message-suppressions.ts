// A tenant's suppression list (issue 34): addresses a provider reported as hard-bounced, complained
// about or unsubscribed. One row per (tenant, address), the address lowercased; the dispatch worker
// fails sends to them without calling a provider.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('msg_suppressions')
    .addColumn('tenant_id', 'varchar(40)', (c) => c.notNull().references('msg_tenants.id'))
    .addColumn('email', 'varchar(320)', (c) => c.notNull())
    .addColumn('reason', 'varchar(30)', (c) => c.notNull())
    .addColumn('message_id', 'varchar(40)')
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addPrimaryKeyConstraint('msg_suppressions_pk', ['tenant_id', 'email'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('msg_suppressions').execute();
}
