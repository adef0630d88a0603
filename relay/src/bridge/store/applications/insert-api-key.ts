// Stores a new API key row: only the secret's SHA-256 is kept, never the secret itself.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { BridgeApiKeysTable } from '../../../db/bridge-tables.js';

export async function insertApiKey(db: Kysely<Database>, row: BridgeApiKeysTable): Promise<void> {
  await db.insertInto('bridge_api_keys').values(row).execute();
}
