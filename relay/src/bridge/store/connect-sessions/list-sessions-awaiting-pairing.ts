// Sessions this connector was enrolled by that wait for this company's pairing (the pairing completes them).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ConnectSessionRow } from './connect-session-row.js';

export function listSessionsAwaitingPairing(db: Kysely<Database>, connectorId: string, companyId: number): Promise<ConnectSessionRow[]> {
  return db
    .selectFrom('connect_sessions')
    .selectAll()
    .where('connector_id', '=', connectorId)
    .where('company_id', '=', companyId)
    .where('status', '=', 'connector_enrolled')
    .execute();
}
