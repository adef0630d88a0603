// The dispatch worker's one lookup per claim: the suppression rows that may match these (tenant,
// address) pairs, in one query rather than one per message. The caller keys them by pair.
import type { Executor } from '../messages/message-rows.js';
import type { SuppressionRow } from './suppression-rows.js';

export function findSuppressionsAmong(db: Executor, pairs: readonly { tenantId: string; email: string }[]): Promise<SuppressionRow[]> {
  if (pairs.length === 0) return Promise.resolve([]);
  const tenants = [...new Set(pairs.map((p) => p.tenantId))];
  const emails = [...new Set(pairs.map((p) => p.email.toLowerCase()))];
  return db.selectFrom('msg_suppressions').selectAll().where('tenant_id', 'in', tenants).where('email', 'in', emails).execute();
}
