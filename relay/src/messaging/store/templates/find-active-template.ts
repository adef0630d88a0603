// The send path's template resolution: the tenant's active template for this event key and channel.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { TemplateRow } from './template-rows.js';

export function findActiveTemplate(db: Kysely<Database>, tenantId: string, eventKey: string, channel: string): Promise<TemplateRow | undefined> {
  return db
    .selectFrom('msg_templates')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('event_key', '=', eventKey)
    .where('channel', '=', channel)
    .where('is_active', '=', 1)
    .executeTakeFirst();
}
