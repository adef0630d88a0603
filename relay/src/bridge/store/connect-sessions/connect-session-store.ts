// Connect sessions: each method one statement, the state changes guarded by the state they leave (so
// two racing requests change a session once). Callers pass a transaction where a change must commit
// with another (the connector's enrolment, the completion's webhook event). Each method runs one
// operation of bridge/store/connect-sessions/.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { cancelConnectSession } from './cancel-connect-session.js';
import { claimConnectSessionForConnector } from './claim-connect-session-for-connector.js';
import { completeConnectSession } from './complete-connect-session.js';
import type { ConnectSessionRow } from './connect-session-row.js';
import { findApplicationConnectSession } from './find-application-connect-session.js';
import { findConnectSessionById } from './find-connect-session-by-id.js';
import { findConnectSessionByPageTokenHash } from './find-connect-session-by-page-token.js';
import { findConnectSessionBySetupCodeHash } from './find-connect-session-by-setup-code.js';
import { insertConnectSession } from './insert-connect-session.js';
import { listCustomerConnectSessions } from './list-customer-connect-sessions.js';
import { listSessionsAwaitingPairing } from './list-sessions-awaiting-pairing.js';

export type { ConnectSessionRow } from './connect-session-row.js';

export class ConnectSessionStore {
  constructor(private readonly db: Kysely<Database>) {}

  insert(row: ConnectSessionRow): Promise<void> {
    return insertConnectSession(this.db, row);
  }

  get(applicationId: string, id: string): Promise<ConnectSessionRow | undefined> {
    return findApplicationConnectSession(this.db, applicationId, id);
  }

  /** Support's lookup: any application's session. */
  getById(id: string): Promise<ConnectSessionRow | undefined> {
    return findConnectSessionById(this.db, id);
  }

  list(applicationId: string, customerId: string): Promise<ConnectSessionRow[]> {
    return listCustomerConnectSessions(this.db, applicationId, customerId);
  }

  findBySetupCodeHash(hash: string): Promise<ConnectSessionRow | undefined> {
    return findConnectSessionBySetupCodeHash(this.db, hash);
  }

  findByPageTokenHash(hash: string): Promise<ConnectSessionRow | undefined> {
    return findConnectSessionByPageTokenHash(this.db, hash);
  }

  /** Sessions this connector was enrolled by that wait for this company's pairing. */
  findAwaitingPairing(connectorId: string, companyId: number): Promise<ConnectSessionRow[]> {
    return listSessionsAwaitingPairing(this.db, connectorId, companyId);
  }

  /** Uses the setup code: only a pending session that has not expired takes a connector, and only once. */
  claimForConnector(executor: Kysely<Database>, id: string, connectorId: string, now: string): Promise<boolean> {
    return claimConnectSessionForConnector(executor, id, connectorId, now);
  }

  complete(executor: Kysely<Database>, id: string, now: string): Promise<boolean> {
    return completeConnectSession(executor, id, now);
  }

  /** Cancels a session still under way; a completed, cancelled or expired one stays as it is. */
  cancel(id: string, now: string): Promise<boolean> {
    return cancelConnectSession(this.db, id, now);
  }
}
