// SQL for templates, including the send path's resolution by (tenant, event_key, channel, active).
import type { Kysely, Selectable } from 'kysely';
import type { Database, MsgTemplatesTable } from '../../db/schema.js';

export type TemplateRow = Selectable<MsgTemplatesTable>;

export const TEST_EMAIL_TEMPLATE = 'test_email';

export class TemplateRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: TemplateRow): Promise<void> {
    await this.db.insertInto('msg_templates').values(row).execute();
  }

  find(tenantId: string, id: string): Promise<TemplateRow | undefined> {
    return this.db.selectFrom('msg_templates').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  }

  list(tenantId: string): Promise<TemplateRow[]> {
    return this.db.selectFrom('msg_templates').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').orderBy('id').execute();
  }

  async update(id: string, changes: Partial<Omit<TemplateRow, 'id' | 'tenant_id' | 'created_at'>>): Promise<void> {
    await this.db.updateTable('msg_templates').set(changes).where('id', '=', id).execute();
  }

  findActive(tenantId: string, eventKey: string, channel: string): Promise<TemplateRow | undefined> {
    return this.db
      .selectFrom('msg_templates')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('event_key', '=', eventKey)
      .where('channel', '=', channel)
      .where('is_active', '=', 1)
      .executeTakeFirst();
  }

  /** How many active templates the tenant has on this channel besides test_email (the onboarding test). */
  async countActiveBesidesTestEmail(tenantId: string, channel: string): Promise<number> {
    const row = await this.db
      .selectFrom('msg_templates')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tenant_id', '=', tenantId)
      .where('channel', '=', channel)
      .where('is_active', '=', 1)
      .where('event_key', '!=', TEST_EMAIL_TEMPLATE)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
