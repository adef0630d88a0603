// One page of a company's live pulled masters of one type by name (id breaks ties), with the total of
// that type: the list envelope callers page through.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { PulledMastersTable } from '../../../db/bridge-tables.js';

export async function listPulledMasters(
  db: Kysely<Database>,
  companyId: number,
  masterType: string,
  page: { limit: number; offset: number },
): Promise<{ total: number; rows: Selectable<PulledMastersTable>[] }> {
  const base = db.selectFrom('pulled_masters').where('company_id', '=', companyId).where('master_type', '=', masterType).where('deleted', '=', 0);
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base.selectAll().orderBy('name').orderBy('id').limit(page.limit).offset(page.offset).execute();
  return { total: Number(total), rows };
}
