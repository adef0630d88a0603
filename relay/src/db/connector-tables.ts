// Kysely table types of the connector gateway (migration 0250-connectors); listed in db/schema.ts.

export interface ConnectorsTable {
  id: string;
  customer_id: string;
  application_id: string;
  machine_name: string;
  /** SHA-256 hex of the secret part of the connector credential. */
  credential_hash: string;
  version: string;
  /** 0/1: the state last published as connector.online / connector.offline. */
  online: number;
  /** 0/1: a socket of the current session is open on some relay process. */
  connected: number;
  /** The session that owns the connector now; a late close of an older session must not undo it. */
  session_id: string | null;
  /** 0/1: the state last published as books.started / books.stopped. */
  books_running: number;
  books_product: string | null;
  /** JSON array of {guid, name}. */
  open_companies: string;
  last_seen_at: string | null;
  disconnected_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ConnectorSyncCursorsTable {
  company_id: number;
  kind: string;
  connector_id: string;
  cursor: string;
  updated_at: string;
}

export type ConnectorTables = {
  connectors: ConnectorsTable;
  connector_sync_cursors: ConnectorSyncCursorsTable;
};
