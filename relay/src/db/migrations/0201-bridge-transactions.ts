// Bridge transactions: each row is one asynchronous write (voucher or master) and is also the queue
// entry the connector gateway claims. `id` orders jobs FIFO per company; the unique index on the
// caller's own id makes a repeated write return the first acceptance, even when repeats race.
import type { Kysely } from 'kysely';
import { autoIncrementKeyType } from './0200-bridge-tenancy.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const key = autoIncrementKeyType(db);
  await db.schema
    .createTable('transactions')
    .ifNotExists()
    .addColumn('id', key, (c) => (key === 'integer' ? c.primaryKey().autoIncrement() : c.primaryKey()))
    .addColumn('job_id', 'varchar(40)', (c) => c.notNull().unique())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('application_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('client_transaction_id', 'varchar(200)')
    .addColumn('job_type', 'varchar(20)', (c) => c.notNull())
    .addColumn('event_type', 'varchar(60)', (c) => c.notNull())
    .addColumn('master_type', 'varchar(40)')
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('retry_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_retries', 'integer', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('xml', 'text', (c) => c.notNull())
    .addColumn('xml_company_name', 'varchar(400)', (c) => c.notNull())
    .addColumn('target_voucher_guid', 'varchar(200)')
    .addColumn('books_voucher_guid', 'varchar(200)')
    .addColumn('books_master_id', 'varchar(100)')
    .addColumn('books_alter_id', 'varchar(100)')
    .addColumn('error_code', 'varchar(60)')
    .addColumn('error_label', 'varchar(200)')
    .addColumn('error_message', 'text')
    .addColumn('connector_id', 'varchar(60)')
    .addColumn('lease_expires_at', 'varchar(40)')
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('completed_at', 'varchar(40)')
    .execute();
  await db.schema
    .createIndex('transactions_company_client_id').ifNotExists()
    .on('transactions')
    .columns(['company_id', 'client_transaction_id'])
    .unique()
    .execute();
  await db.schema.createIndex('transactions_company_status').ifNotExists().on('transactions').columns(['company_id', 'status', 'id']).execute();
  await db.schema.createIndex('transactions_connector').ifNotExists().on('transactions').columns(['connector_id', 'status']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('transactions').execute();
}
