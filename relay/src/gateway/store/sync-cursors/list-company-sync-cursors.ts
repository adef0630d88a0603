// The confirmed cursors of these companies, sent back in welcome; none asked, none read.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export type ConfirmedCursor = Readonly<{ company_id: number; kind: string; cursor: string }>;

export async function listCompanySyncCursors(db: Kysely<Database>, companyIds: readonly number[]): Promise<ConfirmedCursor[]> {
  if (companyIds.length === 0) return [];
  return db
    .selectFrom('connector_sync_cursors')
    .select(['company_id', 'kind', 'cursor'])
    .where('company_id', 'in', companyIds)
    .orderBy('company_id')
    .orderBy('kind')
    .execute();
}
