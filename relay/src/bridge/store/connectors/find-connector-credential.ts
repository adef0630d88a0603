// A connector's credential hash, for authentication only. Every connection's upgrade reads it (ten
// thousand at once after a relay restart), so it is built once (reusable-query.ts): prepare once per
// repository, then call the answer per upgrade.
import type { Kysely } from 'kysely';
import { ReusableQuery } from '../../../db/reusable-query.js';
import type { Database } from '../../../db/schema.js';

/** A connector with its credential hash; never leaves the gateway. */
export type ConnectorCredentialRow = Readonly<{ id: string; credential_hash: string; customer_id: string; application_id: string }>;

export type FindConnectorCredential = (connectorId: string) => Promise<ConnectorCredentialRow | undefined>;

export function prepareFindConnectorCredential(db: Kysely<Database>): FindConnectorCredential {
  const query = new ReusableQuery<{ connectorId: string }, ConnectorCredentialRow>((values) =>
    db.selectFrom('connectors').select(['id', 'credential_hash', 'customer_id', 'application_id']).where('id', '=', values.connectorId),
  );
  return async (connectorId) => {
    const { rows } = await query.execute(db, { connectorId });
    return rows[0];
  };
}
