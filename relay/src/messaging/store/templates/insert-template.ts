// Stores a new template; the template service builds the row and checks it first.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { TemplateRow } from './template-rows.js';

export async function insertTemplate(db: Kysely<Database>, row: TemplateRow): Promise<void> {
  await db.insertInto('msg_templates').values(row).execute();
}
