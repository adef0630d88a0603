// One connector's row by id, for the bridge API's reads (company health, admin).
import type { Kysely, Selectable } from 'kysely';
import type { ConnectorsTable } from '../../../db/connector-tables.js';
import type { Database } from '../../../db/schema.js';

export async function findConnector(db: Kysely<Database>, connectorId: string): Promise<Selectable<ConnectorsTable> | undefined> {
  return db.selectFrom('connectors').selectAll().where('id', '=', connectorId).executeTakeFirst();
}
