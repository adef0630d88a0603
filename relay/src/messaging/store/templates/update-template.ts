// Changes a template's content or state; its id, tenant and creation time never change.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { TemplateRow } from './template-rows.js';

export async function updateTemplate(db: Kysely<Database>, id: string, changes: Partial<Omit<TemplateRow, 'id' | 'tenant_id' | 'created_at'>>): Promise<void> {
  await db.updateTable('msg_templates').set(changes).where('id', '=', id).execute();
}
