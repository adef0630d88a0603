// One API key row by its public key id, or undefined (authentication still hashes for an unknown id).
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { BridgeApiKeysTable } from '../../../db/bridge-tables.js';

export function findApiKeyById(db: Kysely<Database>, keyId: string): Promise<Selectable<BridgeApiKeysTable> | undefined> {
  return db.selectFrom('bridge_api_keys').selectAll().where('key_id', '=', keyId).executeTakeFirst();
}
