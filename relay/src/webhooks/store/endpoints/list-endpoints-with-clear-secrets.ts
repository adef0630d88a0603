// The endpoints whose secrets were written in clear before encryption existed, read at start so they can
// be sealed (a retired entry in clear starts with the whsec prefix; a sealed one with enc:).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export type StoredEndpointSecrets = Readonly<{ id: string; secret: string; retired_secrets: string }>;

export async function listEndpointsWithClearSecrets(db: Kysely<Database>): Promise<StoredEndpointSecrets[]> {
  return db
    .selectFrom('webhook_endpoints')
    .select(['id', 'secret', 'retired_secrets'])
    .where((eb) => eb.or([eb.and([eb('secret', '<>', ''), eb('secret', 'not like', 'enc:%')]), eb('retired_secrets', 'like', '%"secret":"whsec%')]))
    .execute();
}
