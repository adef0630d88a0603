// Rotation's write: only if the stored secret is still the one read before, so two rotations at once
// cannot both win and drop a secret from the overlap. False when it changed (or the endpoint is deleted).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function replaceEndpointSecret(
  db: Kysely<Database>,
  id: string,
  expectedStored: string,
  sealedChanges: { secret: string; retired_secrets: string; updated_at: string },
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set(sealedChanges)
    .where('id', '=', id)
    .where('secret', '=', expectedStored)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
