// Uses the setup code: only a pending session that has not expired takes a connector, and only once.
// Run in the enrolment's transaction, so the connector and the claim commit together.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function claimConnectSessionForConnector(executor: Kysely<Database>, id: string, connectorId: string, now: string): Promise<boolean> {
  const result = await executor
    .updateTable('connect_sessions')
    .set({ status: 'connector_enrolled', connector_id: connectorId, connector_enrolled_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
