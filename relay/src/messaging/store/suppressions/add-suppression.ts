// Puts an address on a tenant's suppression list, lower-cased; a repeat keeps the first reason and
// time (the unique index skips it), so a later event never rewrites why an address was suppressed.
import type { Executor } from '../messages/message-rows.js';
import type { SuppressionRow } from './suppression-rows.js';

export async function addSuppression(db: Executor, row: SuppressionRow): Promise<void> {
  await db
    .insertInto('msg_suppressions')
    .values({ ...row, email: row.email.toLowerCase() })
    .onConflict((oc) => oc.columns(['tenant_id', 'email']).doNothing())
    .execute();
}
