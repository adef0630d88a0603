// Connect sessions (issue 33): an integrator's link taking one customer's business from installing the
// connector to a paired company. The setup code and the page token are kept only as HMAC-SHA256
// digests under a key outside the database (`hmac:v1:<64 hex>`, security/keyed-digest.ts); each digest
// is unique so that a presented secret finds its one session by an index lookup.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('connect_sessions')
    .ifNotExists()
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('application_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('customer_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('company_id', 'integer', (c) => c.notNull())
    // pending, connector_enrolled, completed or cancelled; books_found and expired are read from the
    // connector's reports and the clock, so they never go stale in the table.
    .addColumn('status', 'varchar(30)', (c) => c.notNull())
    .addColumn('setup_code_hash', 'varchar(80)', (c) => c.notNull().unique())
    .addColumn('page_token_hash', 'varchar(80)', (c) => c.notNull().unique())
    .addColumn('return_url', 'varchar(2000)')
    .addColumn('connector_id', 'varchar(60)')
    .addColumn('expires_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('connector_enrolled_at', 'varchar(40)')
    .addColumn('completed_at', 'varchar(40)')
    .addColumn('cancelled_at', 'varchar(40)')
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('connect_sessions_by_customer').ifNotExists().on('connect_sessions').columns(['application_id', 'customer_id', 'created_at']).execute();
  await db.schema.createIndex('connect_sessions_by_connector').ifNotExists().on('connect_sessions').columns(['connector_id', 'status']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('connect_sessions').ifExists().execute();
}
