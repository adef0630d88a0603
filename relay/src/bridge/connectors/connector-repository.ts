// The enrolled connectors: reads for the bridge API (company health, connector jobs, admin listing)
// and the writes of enrolment. Presence writes live in connector-presence-store.ts.
import type { Kysely, Selectable } from 'kysely';
import { ReusableQuery } from '../../db/reusable-query.js';
import type { Database } from '../../db/schema.js';
import type { ConnectorsTable } from '../../db/connector-tables.js';

export type ConnectorRecord = Readonly<{
  id: string;
  customer_id: string;
  application_id: string;
  machine_name: string;
  version: string;
  online: boolean;
  books_running: boolean;
  open_companies: readonly { guid: string; name: string }[];
  last_seen_at: string | null;
  created_at: string;
}>;

/** A connector with its credential hash, for authentication only; never leaves the gateway. */
export type ConnectorCredentialRow = Readonly<{ id: string; credential_hash: string; customer_id: string; application_id: string }>;

export function parseOpenCompanies(json: string): { guid: string; name: string }[] {
  try {
    const value: unknown = JSON.parse(json);
    if (!Array.isArray(value)) return [];
    return value.filter(
      (c): c is { guid: string; name: string } =>
        typeof c === 'object' && c !== null && typeof c.guid === 'string' && typeof c.name === 'string',
    );
  } catch {
    return [];
  }
}

export function toConnectorRecord(row: Selectable<ConnectorsTable>): ConnectorRecord {
  return Object.freeze({
    id: row.id,
    customer_id: row.customer_id,
    application_id: row.application_id,
    machine_name: row.machine_name,
    version: row.version,
    // Online is what is true now: a session open on some relay. The published presence (`online`)
    // waits out the offline grace before connector.offline goes out, so that a reconnecting
    // connector makes no noise; a reader is not kept waiting for that.
    online: row.online === 1 && row.connected === 1,
    books_running: row.books_running === 1,
    open_companies: parseOpenCompanies(row.open_companies),
    last_seen_at: row.last_seen_at,
    created_at: row.created_at,
  });
}

export class ConnectorRepository {
  private readonly db: Kysely<Database>;
  /** Every connection's upgrade reads it (ten thousand at once after a relay restart): built once (reusable-query.ts). */
  private readonly credentialOf: ReusableQuery<{ connectorId: string }, ConnectorCredentialRow>;

  constructor(deps: { db: Kysely<Database> }) {
    this.db = deps.db;
    this.credentialOf = new ReusableQuery<{ connectorId: string }, ConnectorCredentialRow>((values) =>
      deps.db.selectFrom('connectors').select(['id', 'credential_hash', 'customer_id', 'application_id']).where('id', '=', values.connectorId),
    );
  }

  async get(connectorId: string): Promise<ConnectorRecord | undefined> {
    const row = await this.db.selectFrom('connectors').selectAll().where('id', '=', connectorId).executeTakeFirst();
    return row ? toConnectorRecord(row) : undefined;
  }

  async listForApplication(applicationId: string): Promise<ConnectorRecord[]> {
    const rows = await this.db
      .selectFrom('connectors')
      .selectAll()
      .where('application_id', '=', applicationId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toConnectorRecord);
  }

  async listAll(): Promise<ConnectorRecord[]> {
    const rows = await this.db.selectFrom('connectors').selectAll().orderBy('created_at').orderBy('id').execute();
    return rows.map(toConnectorRecord);
  }

  /** The connector of a customer's machine, by its name (the `{machine}` of the jobs endpoint). */
  async findByMachine(customerId: string, machineName: string): Promise<ConnectorRecord | undefined> {
    const row = await this.db
      .selectFrom('connectors')
      .selectAll()
      .where('customer_id', '=', customerId)
      .where('machine_name', '=', machineName)
      .executeTakeFirst();
    return row ? toConnectorRecord(row) : undefined;
  }

  async getCredential(connectorId: string): Promise<ConnectorCredentialRow | undefined> {
    const { rows } = await this.credentialOf.execute(this.db, { connectorId });
    return rows[0];
  }

  /**
   * Enrols a machine: a new connector, or — when the customer already has one of that name (a
   * reinstall) — the same connector with a new credential, so its pairings survive. One statement
   * each way; the unique (customer, machine) constraint settles two enrolments racing. `alongside`
   * runs in the same transaction (a setup code being used): if it throws, nothing is enrolled.
   */
  async enrol(input: {
    newId: string;
    customerId: string;
    applicationId: string;
    machineName: string;
    version: string;
    credentialHash: string;
    now: string;
    alongside?: (trx: Kysely<Database>, connectorId: string) => Promise<void>;
  }): Promise<{ id: string; reenrolled: boolean }> {
    return this.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('connectors')
        .select('id')
        .where('customer_id', '=', input.customerId)
        .where('machine_name', '=', input.machineName)
        .executeTakeFirst();
      if (existing) {
        await trx
          .updateTable('connectors')
          .set({ credential_hash: input.credentialHash, version: input.version, updated_at: input.now })
          .where('id', '=', existing.id)
          .execute();
        await input.alongside?.(trx, existing.id);
        return { id: existing.id, reenrolled: true };
      }
      await trx
        .insertInto('connectors')
        .values({
          id: input.newId,
          customer_id: input.customerId,
          application_id: input.applicationId,
          machine_name: input.machineName,
          credential_hash: input.credentialHash,
          version: input.version,
          online: 0,
          connected: 0,
          session_id: null,
          books_running: 0,
          books_product: null,
          open_companies: '[]',
          last_seen_at: null,
          disconnected_at: null,
          created_at: input.now,
          updated_at: input.now,
        })
        .execute();
      await input.alongside?.(trx, input.newId);
      return { id: input.newId, reenrolled: false };
    });
  }
}
