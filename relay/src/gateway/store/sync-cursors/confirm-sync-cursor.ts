// Records the cursor the relay confirmed for a company and kind after storing a batch (an upsert: the
// latest confirmation wins), so a reinstalled connector resumes where the relay's copy ends.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export async function confirmSyncCursor(
  db: Kysely<Database>,
  input: { companyId: number; kind: string; connectorId: string; cursor: string; now: string },
): Promise<void> {
  await db
    .insertInto('connector_sync_cursors')
    .values({ company_id: input.companyId, kind: input.kind, connector_id: input.connectorId, cursor: input.cursor, updated_at: input.now })
    .onConflict((oc) =>
      oc.columns(['company_id', 'kind']).doUpdateSet({ connector_id: input.connectorId, cursor: input.cursor, updated_at: input.now }),
    )
    .execute();
}
