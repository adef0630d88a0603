// The SQL of connect sessions: each method one statement, the state changes guarded by the state they
// leave (so two racing requests change a session once). Callers pass a transaction where a change
// must commit with another (the connector's enrolment, the completion's webhook event).
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ConnectSessionsTable } from '../../db/connect-session-tables.js';

export type ConnectSessionRow = Selectable<ConnectSessionsTable>;

export class ConnectSessionStore {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: ConnectSessionRow): Promise<void> {
    await this.db.insertInto('connect_sessions').values(row).execute();
  }

  get(applicationId: string, id: string): Promise<ConnectSessionRow | undefined> {
    return this.db.selectFrom('connect_sessions').selectAll().where('id', '=', id).where('application_id', '=', applicationId).executeTakeFirst();
  }

  /** Support's lookup: any application's session. */
  getById(id: string): Promise<ConnectSessionRow | undefined> {
    return this.db.selectFrom('connect_sessions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  list(applicationId: string, customerId: string): Promise<ConnectSessionRow[]> {
    return this.db
      .selectFrom('connect_sessions')
      .selectAll()
      .where('application_id', '=', applicationId)
      .where('customer_id', '=', customerId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(100)
      .execute();
  }

  findBySetupCodeHash(hash: string): Promise<ConnectSessionRow | undefined> {
    return this.db.selectFrom('connect_sessions').selectAll().where('setup_code_hash', '=', hash).executeTakeFirst();
  }

  findByPageTokenHash(hash: string): Promise<ConnectSessionRow | undefined> {
    return this.db.selectFrom('connect_sessions').selectAll().where('page_token_hash', '=', hash).executeTakeFirst();
  }

  /** Sessions this connector was enrolled by that wait for this company's pairing. */
  findAwaitingPairing(connectorId: string, companyId: number): Promise<ConnectSessionRow[]> {
    return this.db
      .selectFrom('connect_sessions')
      .selectAll()
      .where('connector_id', '=', connectorId)
      .where('company_id', '=', companyId)
      .where('status', '=', 'connector_enrolled')
      .execute();
  }

  /** Uses the setup code: only a pending session that has not expired takes a connector, and only once. */
  async claimForConnector(executor: Kysely<Database>, id: string, connectorId: string, now: string): Promise<boolean> {
    const result = await executor
      .updateTable('connect_sessions')
      .set({ status: 'connector_enrolled', connector_id: connectorId, connector_enrolled_at: now, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async complete(executor: Kysely<Database>, id: string, now: string): Promise<boolean> {
    const result = await executor
      .updateTable('connect_sessions')
      .set({ status: 'completed', completed_at: now, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'connector_enrolled')
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Cancels a session still under way; a completed, cancelled or expired one stays as it is. */
  async cancel(id: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('connect_sessions')
      .set({ status: 'cancelled', cancelled_at: now, updated_at: now })
      .where('id', '=', id)
      .where('status', 'in', ['pending', 'connector_enrolled'])
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
