// The newest jobs of the application handed to any of these connectors (one machine may have had
// several connector ids), for the support view of what a machine did.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { TransactionsTable } from '../../../db/bridge-tables.js';

export function listConnectorTransactions(
  db: Kysely<Database>,
  applicationId: string,
  connectorIds: readonly string[],
  limit: number,
): Promise<Selectable<TransactionsTable>[]> {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where('application_id', '=', applicationId)
    .where('connector_id', 'in', [...connectorIds])
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
