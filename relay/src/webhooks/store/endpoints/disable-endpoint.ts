// Disables a still-enabled live endpoint; false when someone else disabled or deleted it first, so the
// disabling is announced once.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function disableEndpoint(db: Kysely<Database>, id: string, reason: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set({ enabled: 0, disabled_reason: reason, updated_at: now })
    .where('id', '=', id)
    .where('enabled', '=', 1)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
