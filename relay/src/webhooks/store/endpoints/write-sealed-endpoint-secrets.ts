// Replaces an endpoint's clear secrets by their sealed form only if the row still holds what was read,
// so relays starting together do not collide; answers how many rows were written (0 or 1).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { StoredEndpointSecrets } from './list-endpoints-with-clear-secrets.js';

export async function writeSealedEndpointSecrets(
  db: Kysely<Database>,
  read: StoredEndpointSecrets,
  sealed: { secret: string; retired_secrets: string },
): Promise<number> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set({ secret: sealed.secret, retired_secrets: sealed.retired_secrets })
    .where('id', '=', read.id)
    .where('secret', '=', read.secret)
    .where('retired_secrets', '=', read.retired_secrets)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
