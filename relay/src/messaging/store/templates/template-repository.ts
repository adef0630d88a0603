// Templates, including the send path's resolution by (tenant, event_key, channel, active); each
// method runs one operation of store/templates/.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { countActiveTemplatesBesidesTestEmail } from './count-active-templates-besides-test-email.js';
import { findActiveTemplate } from './find-active-template.js';
import { findTemplate } from './find-template.js';
import { insertTemplate } from './insert-template.js';
import { listTemplates } from './list-templates.js';
import type { TemplateRow } from './template-rows.js';
import { updateTemplate } from './update-template.js';

export { TEST_EMAIL_TEMPLATE, type TemplateRow } from './template-rows.js';

export class TemplateRepository {
  constructor(private readonly db: Kysely<Database>) {}

  insert(row: TemplateRow): Promise<void> {
    return insertTemplate(this.db, row);
  }

  find(tenantId: string, id: string): Promise<TemplateRow | undefined> {
    return findTemplate(this.db, tenantId, id);
  }

  list(tenantId: string): Promise<TemplateRow[]> {
    return listTemplates(this.db, tenantId);
  }

  update(id: string, changes: Partial<Omit<TemplateRow, 'id' | 'tenant_id' | 'created_at'>>): Promise<void> {
    return updateTemplate(this.db, id, changes);
  }

  findActive(tenantId: string, eventKey: string, channel: string): Promise<TemplateRow | undefined> {
    return findActiveTemplate(this.db, tenantId, eventKey, channel);
  }

  /** How many active templates the tenant has on this channel besides test_email (the onboarding test). */
  countActiveBesidesTestEmail(tenantId: string, channel: string): Promise<number> {
    return countActiveTemplatesBesidesTestEmail(this.db, tenantId, channel);
  }
}
