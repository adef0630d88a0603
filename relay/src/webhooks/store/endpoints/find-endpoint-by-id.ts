// Any endpoint by id, deleted or not: the delivery worker decides what a deleted one means.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { EndpointRow } from '../webhook-records.js';

export async function findEndpointById(db: Kysely<Database>, id: string): Promise<EndpointRow | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
}
