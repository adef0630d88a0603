// Named operator accounts (each with its own token, kept as SHA-256) and the operator audit log.
// The audit log is append-only: the relay has no update or delete path for it, and the database
// refuses both with a trigger, so not even a stray query can rewrite history.
import { SqliteAdapter, sql, type Kysely } from 'kysely';
import { autoIncrementKeyType } from './0200-bridge-tenancy.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('operator_accounts')
    .ifNotExists()
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('role', 'varchar(20)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('created_by', 'varchar(40)', (c) => c.notNull())
    .addColumn('token_rotated_at', 'varchar(40)')
    .addColumn('revoked_at', 'varchar(40)')
    .execute();

  const key = autoIncrementKeyType(db);
  await db.schema
    .createTable('operator_audit_log')
    .ifNotExists()
    .addColumn('id', key, (c) => (key === 'integer' ? c.primaryKey().autoIncrement() : c.primaryKey()))
    .addColumn('at', 'varchar(40)', (c) => c.notNull())
    .addColumn('actor_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('actor_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('actor_role', 'varchar(20)', (c) => c.notNull())
    .addColumn('action', 'varchar(100)', (c) => c.notNull())
    .addColumn('object_type', 'varchar(50)', (c) => c.notNull())
    .addColumn('object_id', 'varchar(100)')
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('ip', 'varchar(100)', (c) => c.notNull())
    .addColumn('user_agent', 'varchar(500)')
    .addColumn('request_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.createIndex('operator_audit_by_actor').ifNotExists().on('operator_audit_log').columns(['actor_id', 'id']).execute();
  await db.schema.createIndex('operator_audit_by_object').ifNotExists().on('operator_audit_log').columns(['object_type', 'object_id', 'id']).execute();
  await db.schema.createIndex('operator_audit_by_time').ifNotExists().on('operator_audit_log').column('at').execute();

  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    for (const verb of ['update', 'delete']) {
      await sql`create trigger if not exists ${sql.raw(`operator_audit_log_no_${verb}`)} before ${sql.raw(verb)} on operator_audit_log
        begin select raise(abort, 'operator_audit_log is append-only'); end`.execute(db);
    }
  } else {
    await sql`create or replace function operator_audit_log_append_only() returns trigger language plpgsql as $$
      begin raise exception 'operator_audit_log is append-only'; end $$`.execute(db);
    await sql`drop trigger if exists operator_audit_log_append_only on operator_audit_log`.execute(db);
    await sql`create trigger operator_audit_log_append_only before update or delete on operator_audit_log
      for each statement execute function operator_audit_log_append_only()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('operator_audit_log').ifExists().execute();
  await db.schema.dropTable('operator_accounts').ifExists().execute();
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) await sql`drop function if exists operator_audit_log_append_only()`.execute(db);
}
