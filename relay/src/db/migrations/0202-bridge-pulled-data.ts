// Data the connector pulls out of the books: vouchers (with their consumption status), masters, and
// the latest snapshot of each enabled report. Rows are keyed by the books' GUID within a company.
import type { Kysely } from 'kysely';
import { autoIncrementKeyType } from './0200-bridge-tenancy.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const key = autoIncrementKeyType(db);
  await db.schema
    .createTable('pulled_vouchers')
    .ifNotExists()
    .addColumn('id', key, (c) => (key === 'integer' ? c.primaryKey().autoIncrement() : c.primaryKey()))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('transaction_id', 'varchar(60)', (c) => c.notNull().unique())
    .addColumn('books_voucher_guid', 'varchar(200)', (c) => c.notNull())
    .addColumn('alter_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('voucher_kind', 'varchar(40)', (c) => c.notNull())
    .addColumn('voucher_type', 'varchar(200)', (c) => c.notNull())
    .addColumn('voucher_number', 'varchar(200)')
    .addColumn('voucher_date', 'varchar(8)', (c) => c.notNull())
    .addColumn('party_ledger', 'varchar(400)')
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('acknowledged_alter_id', 'varchar(40)')
    .addColumn('acknowledged_at', 'varchar(40)')
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pulled_vouchers_guid').ifNotExists().on('pulled_vouchers').columns(['company_id', 'books_voucher_guid']).unique().execute();
  await db.schema.createIndex('pulled_vouchers_list').ifNotExists().on('pulled_vouchers').columns(['company_id', 'deleted', 'voucher_date']).execute();

  await db.schema
    .createTable('pulled_masters')
    .ifNotExists()
    .addColumn('id', key, (c) => (key === 'integer' ? c.primaryKey().autoIncrement() : c.primaryKey()))
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('master_type', 'varchar(40)', (c) => c.notNull())
    .addColumn('name', 'varchar(400)', (c) => c.notNull())
    .addColumn('books_master_guid', 'varchar(200)', (c) => c.notNull())
    .addColumn('master_id', 'varchar(40)')
    .addColumn('alter_id', 'varchar(40)')
    .addColumn('parent', 'varchar(400)')
    .addColumn('reserved_name', 'varchar(200)')
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pulled_masters_guid').ifNotExists().on('pulled_masters').columns(['company_id', 'books_master_guid']).unique().execute();
  await db.schema.createIndex('pulled_masters_list').ifNotExists().on('pulled_masters').columns(['company_id', 'master_type', 'deleted']).execute();

  await db.schema
    .createTable('report_snapshots')
    .ifNotExists()
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('report_key', 'varchar(20)', (c) => c.notNull())
    .addColumn('rows', 'text', (c) => c.notNull())
    .addColumn('row_count', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
    .addPrimaryKeyConstraint('report_snapshots_pk', ['company_id', 'report_key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['report_snapshots', 'pulled_masters', 'pulled_vouchers']) await db.schema.dropTable(table).ifExists().execute();
}
