// The sync cursors the relay confirmed, per company and kind: written after a batch is stored, sent
// back in welcome so a reinstalled connector resumes where the relay's copy ends.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export type ConfirmedCursor = Readonly<{ company_id: number; kind: string; cursor: string }>;

export class SyncCursorStore {
  private readonly db: Kysely<Database>;

  constructor(deps: { db: Kysely<Database> }) {
    this.db = deps.db;
  }

  async confirm(input: { companyId: number; kind: string; connectorId: string; cursor: string; now: string }): Promise<void> {
    await this.db
      .insertInto('connector_sync_cursors')
      .values({ company_id: input.companyId, kind: input.kind, connector_id: input.connectorId, cursor: input.cursor, updated_at: input.now })
      .onConflict((oc) =>
        oc.columns(['company_id', 'kind']).doUpdateSet({ connector_id: input.connectorId, cursor: input.cursor, updated_at: input.now }),
      )
      .execute();
  }

  async listForCompanies(companyIds: readonly number[]): Promise<ConfirmedCursor[]> {
    if (companyIds.length === 0) return [];
    return this.db
      .selectFrom('connector_sync_cursors')
      .select(['company_id', 'kind', 'cursor'])
      .where('company_id', 'in', companyIds)
      .orderBy('company_id')
      .orderBy('kind')
      .execute();
  }
}
