// Messaging: tenants, API keys, templates, messages with their delivery timeline, ingested business
// events and the event rules that turn them into messages. Idempotency lives in unique indexes.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('msg_tenants')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('org_id', 'bigint', (c) => c.notNull().unique())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('limits', 'text', (c) => c.notNull())
    .addColumn('provider_order', 'text')
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('msg_api_keys')
    .addColumn('prefix', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(40)', (c) => c.notNull().references('msg_tenants.id'))
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(40)')
    .execute();
  await db.schema.createIndex('msg_api_keys_tenant').on('msg_api_keys').column('tenant_id').execute();

  await db.schema
    .createTable('msg_templates')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(40)', (c) => c.notNull().references('msg_tenants.id'))
    .addColumn('event_key', 'varchar(100)', (c) => c.notNull())
    .addColumn('channel', 'varchar(20)', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('html', 'text', (c) => c.notNull())
    .addColumn('text', 'text')
    .addColumn('is_active', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
    .execute();
  // At most one active template per (tenant, event_key, channel): resolution is never ambiguous.
  await db.schema
    .createIndex('msg_templates_one_active')
    .on('msg_templates')
    .columns(['tenant_id', 'event_key', 'channel'])
    .unique()
    .where(sql.ref('is_active'), '=', 1)
    .execute();

  await db.schema
    .createTable('msg_messages')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(40)', (c) => c.notNull().references('msg_tenants.id'))
    .addColumn('business_event_id', 'varchar(220)', (c) => c.notNull())
    .addColumn('transaction_id', 'varchar(150)', (c) => c.notNull())
    .addColumn('action', 'varchar(60)', (c) => c.notNull())
    .addColumn('request_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('channel', 'varchar(20)', (c) => c.notNull())
    .addColumn('to_address', 'varchar(320)', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('html', 'text', (c) => c.notNull())
    .addColumn('text', 'text')
    .addColumn('event_key', 'varchar(100)', (c) => c.notNull())
    .addColumn('template_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('template_fallback', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('status_rank', 'integer', (c) => c.notNull())
    .addColumn('provider', 'varchar(20)')
    .addColumn('provider_message_id', 'varchar(200)')
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'varchar(40)')
    .addColumn('lease_until', 'varchar(40)')
    .addColumn('error', 'text')
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
    .execute();
  // The business-event id is unique per tenant for ever: concurrent duplicates meet here.
  await db.schema
    .createIndex('msg_messages_business_event')
    .on('msg_messages')
    .columns(['tenant_id', 'business_event_id'])
    .unique()
    .execute();
  await db.schema.createIndex('msg_messages_due').on('msg_messages').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('msg_messages_provider_id').on('msg_messages').column('provider_message_id').execute();

  await db.schema
    .createTable('msg_message_events')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('message_id', 'varchar(40)', (c) => c.notNull().references('msg_messages.id'))
    .addColumn('type', 'varchar(40)', (c) => c.notNull())
    .addColumn('status', 'varchar(20)')
    .addColumn('provider', 'varchar(20)')
    .addColumn('provider_event_id', 'varchar(200)')
    .addColumn('detail', 'text')
    .addColumn('occurred_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('recorded_at', 'varchar(40)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('msg_message_events_message').on('msg_message_events').columns(['message_id', 'recorded_at']).execute();
  // Provider events are deduplicated by their own id (SendGrid's sg_event_id); NULLs never collide.
  await db.schema
    .createIndex('msg_message_events_provider_event')
    .on('msg_message_events')
    .columns(['provider', 'provider_event_id'])
    .unique()
    .execute();

  await db.schema
    .createTable('msg_events')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(40)', (c) => c.notNull().references('msg_tenants.id'))
    .addColumn('event_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('event_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('next_attempt_at', 'varchar(40)')
    .addColumn('lease_until', 'varchar(40)')
    .addColumn('result', 'text')
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('processed_at', 'varchar(40)')
    .execute();
  await db.schema.createIndex('msg_events_event_id').on('msg_events').columns(['tenant_id', 'event_id']).unique().execute();
  await db.schema.createIndex('msg_events_due').on('msg_events').columns(['status', 'next_attempt_at']).execute();

  await db.schema
    .createTable('msg_event_rules')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('tenant_id', 'varchar(40)', (c) => c.notNull().references('msg_tenants.id'))
    .addColumn('event_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('channel', 'varchar(20)', (c) => c.notNull())
    .addColumn('event_key', 'varchar(100)', (c) => c.notNull())
    .addColumn('to_template', 'text', (c) => c.notNull())
    .addColumn('subject_template', 'text', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('msg_event_rules_match').on('msg_event_rules').columns(['tenant_id', 'event_name']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['msg_event_rules', 'msg_events', 'msg_message_events', 'msg_messages', 'msg_templates', 'msg_api_keys', 'msg_tenants']) {
    await db.schema.dropTable(table).execute();
  }
}
