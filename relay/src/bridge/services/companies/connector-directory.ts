// What the bridge API reads about connectors: the gateway's connector repository
// (relay/src/bridge/store/connectors/connector-repository.ts) satisfies this shape. Kept as a type so
// services depend on the shape, not the module.
export type ConnectorRecord = Readonly<{
  id: string;
  customer_id: string;
  application_id: string;
  machine_name: string;
  version: string | null;
  online: boolean;
  books_running: boolean;
  open_companies: readonly { guid: string; name: string }[];
  last_seen_at: string | null;
  created_at: string;
}>;

export type ConnectorDirectory = Readonly<{
  get(connectorId: string): Promise<ConnectorRecord | undefined>;
  listForApplication(applicationId: string): Promise<readonly ConnectorRecord[]>;
  listAll(): Promise<readonly ConnectorRecord[]>;
}>;
