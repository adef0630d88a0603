// An application's API keys, oldest first, revoked ones included (the list shows when each was revoked).
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { BridgeApiKeysTable } from '../../../db/bridge-tables.js';

export function listApiKeysOfApplication(db: Kysely<Database>, applicationId: string): Promise<Selectable<BridgeApiKeysTable>[]> {
  return db.selectFrom('bridge_api_keys').selectAll().where('application_id', '=', applicationId).orderBy('created_at').execute();
}
