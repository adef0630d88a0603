// A customer's latest sessions in an application, newest first and at most 100 (a listing, not an export).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ConnectSessionRow } from './connect-session-row.js';

export function listCustomerConnectSessions(db: Kysely<Database>, applicationId: string, customerId: string): Promise<ConnectSessionRow[]> {
  return db
    .selectFrom('connect_sessions')
    .selectAll()
    .where('application_id', '=', applicationId)
    .where('customer_id', '=', customerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
}
