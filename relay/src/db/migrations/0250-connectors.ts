// Connector gateway: the enrolled connector machines (credential hash, presence) and the sync cursors
// the relay confirmed per company and kind.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('connectors')
    .addColumn('id', 'varchar(60)', (c) => c.primaryKey())
    .addColumn('customer_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('application_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('machine_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('credential_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('version', 'varchar(50)', (c) => c.notNull())
    // Presence as last published in webhooks (online, books_running) and as it is now (connected).
    .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('connected', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('session_id', 'varchar(60)')
    .addColumn('books_running', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('books_product', 'varchar(200)')
    .addColumn('open_companies', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('last_seen_at', 'varchar(40)')
    .addColumn('disconnected_at', 'varchar(40)')
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
    .addUniqueConstraint('connectors_customer_machine', ['customer_id', 'machine_name'])
    .execute();
  await db.schema.createIndex('connectors_application').on('connectors').column('application_id').execute();

  await db.schema
    .createTable('connector_sync_cursors')
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('connector_id', 'varchar(60)', (c) => c.notNull())
    .addColumn('cursor', 'varchar(500)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
    .addPrimaryKeyConstraint('connector_sync_cursors_pk', ['company_id', 'kind'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('connector_sync_cursors').execute();
  await db.schema.dropTable('connectors').execute();
}
