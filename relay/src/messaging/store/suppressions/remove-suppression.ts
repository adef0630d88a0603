// Takes an address off a tenant's suppression list, so sends to it go out again; returns whether it
// was on the list (the caller answers 404 otherwise).
import type { Executor } from '../messages/message-rows.js';

export async function removeSuppression(db: Executor, tenantId: string, email: string): Promise<boolean> {
  const result = await db.deleteFrom('msg_suppressions').where('tenant_id', '=', tenantId).where('email', '=', email.toLowerCase()).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
