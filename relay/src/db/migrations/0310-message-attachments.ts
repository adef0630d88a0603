// Attachments of a message (issue 34): name, type, content id and size kept for ever; the bytes (as the
// base64 text the send carried) only until the message is final — the dispatch commit that records it
// sent or failed sets `content` to NULL. `attachment_bytes` on the message lets the dispatch worker
// budget memory before it loads any bytes, and skip the lookup for messages without attachments.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('msg_attachments')
    .addColumn('message_id', 'varchar(40)', (c) => c.notNull().references('msg_messages.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('filename', 'varchar(255)', (c) => c.notNull())
    .addColumn('content_type', 'varchar(255)', (c) => c.notNull())
    .addColumn('content_id', 'varchar(255)')
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('content', 'text')
    .addPrimaryKeyConstraint('msg_attachments_pk', ['message_id', 'position'])
    .execute();
  await db.schema.alterTable('msg_messages').addColumn('attachment_bytes', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('msg_messages').dropColumn('attachment_bytes').execute();
  await db.schema.dropTable('msg_attachments').execute();
}
