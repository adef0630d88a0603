// Which connector session holds a processing job's lease. A session may be handed a company's next jobs
// while it still imports earlier ones (it runs them in the order it received them), but no other
// session may: a leftover session of the same connector on another relay process must not take a
// company's later jobs while a newer session holds its earlier ones.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('transactions').addColumn('lease_session', 'varchar(80)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('transactions').dropColumn('lease_session').execute();
}
