// The connectors enrolled under one application, oldest first (a stable order for listings).
import type { Kysely, Selectable } from 'kysely';
import type { ConnectorsTable } from '../../../db/connector-tables.js';
import type { Database } from '../../../db/schema.js';

export async function listApplicationConnectors(db: Kysely<Database>, applicationId: string): Promise<Selectable<ConnectorsTable>[]> {
  return db
    .selectFrom('connectors')
    .selectAll()
    .where('application_id', '=', applicationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
