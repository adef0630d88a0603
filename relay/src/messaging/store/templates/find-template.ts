// One template by id, scoped to its tenant so a tenant never reaches another's template.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { TemplateRow } from './template-rows.js';

export function findTemplate(db: Kysely<Database>, tenantId: string, id: string): Promise<TemplateRow | undefined> {
  return db.selectFrom('msg_templates').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}
