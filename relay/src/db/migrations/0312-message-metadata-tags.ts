// A send's metadata (a small map of strings) and tags (issue 34), kept as JSON text on the message
// for the read model and the status webhooks, and each tag once more in msg_message_tags so that
// GET /api/messages?tag= and the console find a tenant's tagged messages through an index; and the
// index GET /api/messages pages by.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('msg_messages').addColumn('metadata', 'text').execute();
  await db.schema.alterTable('msg_messages').addColumn('tags', 'text').execute();
  await db.schema
    .createTable('msg_message_tags')
    .addColumn('message_id', 'varchar(40)', (c) => c.notNull().references('msg_messages.id'))
    .addColumn('tenant_id', 'varchar(40)', (c) => c.notNull())
    .addColumn('tag', 'varchar(50)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addPrimaryKeyConstraint('msg_message_tags_pk', ['message_id', 'tag'])
    .execute();
  // GET /api/messages pages a tenant's messages by (created_at, id).
  await db.schema.createIndex('msg_messages_by_tenant_created').on('msg_messages').columns(['tenant_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('msg_message_tags_by_tenant').on('msg_message_tags').columns(['tenant_id', 'tag', 'created_at', 'message_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('msg_message_tags').execute();
  await db.schema.dropIndex('msg_messages_by_tenant_created').execute();
  await db.schema.alterTable('msg_messages').dropColumn('tags').execute();
  await db.schema.alterTable('msg_messages').dropColumn('metadata').execute();
}
