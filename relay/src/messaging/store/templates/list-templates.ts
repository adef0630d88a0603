// A tenant's templates, oldest first (ties by id), so listings are stable between calls.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { TemplateRow } from './template-rows.js';

export function listTemplates(db: Kysely<Database>, tenantId: string): Promise<TemplateRow[]> {
  return db.selectFrom('msg_templates').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').orderBy('id').execute();
}
