// Accounting bridge tenancy: applications (the callers), their API keys, customers (end-user
// businesses, with the connector enrolment token) and companies (one set of books each).
// Every statement is idempotent (IF NOT EXISTS), so replaying a migration that was partly applied
// (SQLite DDL outside a transaction, a crash mid-run) cannot wedge the start-up.
import { SqliteAdapter, type Kysely } from 'kysely';

/**
 * An auto-incrementing integer key: SQLite's INTEGER PRIMARY KEY AUTOINCREMENT, PostgreSQL's serial.
 * Migrations receive no capability table, so this is the one place that looks at the adapter.
 */
export function autoIncrementKeyType(db: Kysely<unknown>): 'integer' | 'serial' {
  return db.getExecutor().adapter instanceof SqliteAdapter ? 'integer' : 'serial';
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const key = autoIncrementKeyType(db);
  await db.schema
    .createTable('applications')
    .ifNotExists()
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('bridge_api_keys')
    .ifNotExists()
    .addColumn('key_id', 'varchar(60)', (c) => c.primaryKey())
    .addColumn('application_id', 'varchar(40)', (c) => c.notNull().references('applications.id'))
    .addColumn('environment', 'varchar(10)', (c) => c.notNull())
    .addColumn('capabilities', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(40)')
    .execute();
  await db.schema.createIndex('bridge_api_keys_application').ifNotExists().on('bridge_api_keys').column('application_id').execute();

  await db.schema
    .createTable('customers')
    .ifNotExists()
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('application_id', 'varchar(40)', (c) => c.notNull().references('applications.id'))
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('external_id', 'varchar(200)')
    .addColumn('token_prefix', 'varchar(40)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('token_rotated_at', 'varchar(40)')
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('customers_application').ifNotExists().on('customers').column('application_id').execute();
  await db.schema.createIndex('customers_token_prefix').ifNotExists().on('customers').column('token_prefix').execute();

  await db.schema
    .createTable('companies')
    .ifNotExists()
    .addColumn('id', key, (c) => (key === 'integer' ? c.primaryKey().autoIncrement() : c.primaryKey()))
    .addColumn('application_id', 'varchar(40)', (c) => c.notNull().references('applications.id'))
    .addColumn('customer_id', 'varchar(40)', (c) => c.references('customers.id'))
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    // No foreign key: connectors are the gateway's table (migrations 0250+), paired by id only.
    .addColumn('connector_id', 'varchar(60)')
    .addColumn('books_company_guid', 'varchar(200)')
    .addColumn('books_company_name', 'varchar(400)')
    .addColumn('pull_masters', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('report_stock', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('report_gst', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('paired_at', 'varchar(40)')
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('companies_application').ifNotExists().on('companies').column('application_id').execute();
  await db.schema.createIndex('companies_connector').ifNotExists().on('companies').column('connector_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['companies', 'customers', 'bridge_api_keys', 'applications']) await db.schema.dropTable(table).ifExists().execute();
}
