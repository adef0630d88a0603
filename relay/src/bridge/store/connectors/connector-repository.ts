// The enrolled connectors: reads for the bridge API (company health, connector jobs, admin listing)
// and the writes of enrolment. Presence writes live in connector-presence-store.ts. Each method runs
// one operation of gateway/store/connectors/.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { ConnectorsTable } from '../../../db/connector-tables.js';
import { enrolConnector, type ConnectorEnrolment } from './enrol-connector.js';
import { findConnector } from './find-connector.js';
import { findConnectorByMachine } from './find-connector-by-machine.js';
import {
  prepareFindConnectorCredential,
  type ConnectorCredentialRow,
  type FindConnectorCredential,
} from './find-connector-credential.js';
import { listAllConnectors } from './list-all-connectors.js';
import { listApplicationConnectors } from './list-application-connectors.js';

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
export type { ConnectorCredentialRow } from './find-connector-credential.js';

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
  /** Every connection's upgrade reads it (ten thousand at once after a relay restart): prepared once (reusable-query.ts). */
  private readonly credentialOf: FindConnectorCredential;

  constructor(deps: { db: Kysely<Database> }) {
    this.db = deps.db;
    this.credentialOf = prepareFindConnectorCredential(deps.db);
  }

  async get(connectorId: string): Promise<ConnectorRecord | undefined> {
    const row = await findConnector(this.db, connectorId);
    return row ? toConnectorRecord(row) : undefined;
  }

  async listForApplication(applicationId: string): Promise<ConnectorRecord[]> {
    const rows = await listApplicationConnectors(this.db, applicationId);
    return rows.map(toConnectorRecord);
  }

  async listAll(): Promise<ConnectorRecord[]> {
    const rows = await listAllConnectors(this.db);
    return rows.map(toConnectorRecord);
  }

  /** The connector of a customer's machine, by its name (the `{machine}` of the jobs endpoint). */
  async findByMachine(customerId: string, machineName: string): Promise<ConnectorRecord | undefined> {
    const row = await findConnectorByMachine(this.db, customerId, machineName);
    return row ? toConnectorRecord(row) : undefined;
  }

  getCredential(connectorId: string): Promise<ConnectorCredentialRow | undefined> {
    return this.credentialOf(connectorId);
  }

  /**
   * Enrols a machine: a new connector, or — when the customer already has one of that name (a
   * reinstall) — the same connector with a new credential, so its pairings survive. One statement
   * each way; the unique (customer, machine) constraint settles two enrolments racing. `alongside`
   * runs in the same transaction (a setup code being used): if it throws, nothing is enrolled.
   */
  enrol(input: ConnectorEnrolment): Promise<{ id: string; reenrolled: boolean }> {
    return enrolConnector(this.db, input);
  }
}
