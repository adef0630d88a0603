// The dispatch claim serves tenants in turn (claim-due-messages.ts): it finds the tenants with
// queued messages by skipping through this index, then takes each one's oldest due messages from it.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('msg_messages_due_by_tenant').on('msg_messages').columns(['status', 'tenant_id', 'next_attempt_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('msg_messages_due_by_tenant').execute();
}
