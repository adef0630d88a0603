// Where an operator action came from: `api` (an /admin/v1 request, the console included) or `cli` (the
// admin CLI on the relay's machine, `npm run admin …`). Rows written before this migration were all
// API requests, which the default records. A column with a constant default is a catalogue change on
// both databases (no table rewrite), and ALTER TABLE is not an UPDATE: the append-only triggers stay.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('operator_audit_log').addColumn('source', 'varchar(10)', (c) => c.notNull().defaultTo('api')).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('operator_audit_log').dropColumn('source').execute();
}
