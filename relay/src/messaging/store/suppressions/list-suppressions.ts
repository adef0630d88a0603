// A tenant's suppressed addresses, newest first (ties by address), capped so a long list stays one page.
import type { Executor } from '../messages/message-rows.js';
import type { SuppressionRow } from './suppression-rows.js';

export function listSuppressions(db: Executor, tenantId: string, limit: number): Promise<SuppressionRow[]> {
  return db.selectFrom('msg_suppressions').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at', 'desc').orderBy('email').limit(limit).execute();
}
