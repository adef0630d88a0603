// The installation id: created once per database (the first relay to start wins the insert, the rest
// keep it), shown by whoami so support can tell relays apart.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function ensureInstallationId(db: Kysely<Database>): Promise<string> {
  await db
    .insertInto('relay_settings')
    .values({ key: 'installation_id', value: `inst_${randomUUID()}`, updated_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('relay_settings').select('value').where('key', '=', 'installation_id').executeTakeFirstOrThrow();
  return row.value;
}
