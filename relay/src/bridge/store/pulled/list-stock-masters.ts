// A company's live stock groups and stock items by name: everything the stock-group tree is built from.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { PulledMastersTable } from '../../../db/bridge-tables.js';

export function listStockMasters(db: Kysely<Database>, companyId: number): Promise<Selectable<PulledMastersTable>[]> {
  return db
    .selectFrom('pulled_masters')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('master_type', 'in', ['stock_group', 'stock_item'])
    .where('deleted', '=', 0)
    .orderBy('name')
    .execute();
}
