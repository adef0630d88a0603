// Enrols a machine in one transaction: a new connector, or — when the customer already has one of that
// name (a reinstall) — the same connector with a new credential, so its pairings survive. The unique
// (customer, machine) constraint settles two enrolments racing; `alongside` commits or fails with it.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export type ConnectorEnrolment = Readonly<{
  newId: string;
  customerId: string;
  applicationId: string;
  machineName: string;
  version: string;
  credentialHash: string;
  now: string;
  alongside?: (trx: Kysely<Database>, connectorId: string) => Promise<void>;
}>;

export async function enrolConnector(db: Kysely<Database>, input: ConnectorEnrolment): Promise<{ id: string; reenrolled: boolean }> {
  return db.transaction().execute(async (trx) => {
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
