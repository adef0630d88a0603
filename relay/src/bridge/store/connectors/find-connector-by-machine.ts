// The connector of a customer's machine by its name (the `{machine}` of the jobs endpoint); the pair is
// unique, so this is one row at most.
import type { Kysely, Selectable } from 'kysely';
import type { ConnectorsTable } from '../../../db/connector-tables.js';
import type { Database } from '../../../db/schema.js';

export async function findConnectorByMachine(db: Kysely<Database>, customerId: string, machineName: string): Promise<Selectable<ConnectorsTable> | undefined> {
  return db
    .selectFrom('connectors')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('machine_name', '=', machineName)
    .executeTakeFirst();
}
