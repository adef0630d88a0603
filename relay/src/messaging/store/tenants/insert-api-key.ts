// Stores a tenant's new API key (its hash and prefix only: the secret is shown once and never kept).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ApiKeyRow } from './tenant-rows.js';

export async function insertApiKey(db: Kysely<Database>, row: ApiKeyRow): Promise<void> {
  await db.insertInto('msg_api_keys').values(row).execute();
}
