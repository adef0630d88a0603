// Every connector, oldest first: the operator's fleet listing.
import type { Kysely, Selectable } from 'kysely';
import type { ConnectorsTable } from '../../../db/connector-tables.js';
import type { Database } from '../../../db/schema.js';

export async function listAllConnectors(db: Kysely<Database>): Promise<Selectable<ConnectorsTable>[]> {
  return db.selectFrom('connectors').selectAll().orderBy('created_at').orderBy('id').execute();
}
