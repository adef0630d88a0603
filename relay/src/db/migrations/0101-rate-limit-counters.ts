// Rate-limit counters shared by every relay process on one database: one row per (scope, window),
// incremented with an atomic conditional upsert (relay/src/limits/rate-limit-counter-repository.ts).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limit_counters')
    .addColumn('scope', 'varchar(200)', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_counters_pk', ['scope', 'window_start'])
    .execute();
  await db.schema.createIndex('rate_limit_counters_expiry').on('rate_limit_counters').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_limit_counters').execute();
}
