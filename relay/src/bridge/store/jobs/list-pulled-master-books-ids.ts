// The live pulled masters of these companies and types that match by exact name or by master id, in
// one read for a page of transactions, ascending by id (so of two sharing a key the last pulled wins).
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';

export type PulledMasterBooksIds = { id: number; company_id: number; master_type: string; name: string; master_id: string | null; alter_id: string | null };

export function listPulledMasterBooksIds(
  db: Kysely<Database>,
  wanted: { companyIds: readonly number[]; masterTypes: readonly string[]; names: readonly string[]; masterIds: readonly string[] },
): Promise<PulledMasterBooksIds[]> {
  const { names, masterIds } = wanted;
  return db
    .selectFrom('pulled_masters')
    .select(['id', 'company_id', 'master_type', 'name', 'master_id', 'alter_id'])
    .where('company_id', 'in', [...wanted.companyIds])
    .where('master_type', 'in', [...wanted.masterTypes])
    .where('deleted', '=', 0)
    .where((eb) => eb.or([...(names.length > 0 ? [eb('name', 'in', [...names])] : []), ...(masterIds.length > 0 ? [eb('master_id', 'in', [...masterIds])] : [])]))
    .orderBy('id')
    .execute();
}
