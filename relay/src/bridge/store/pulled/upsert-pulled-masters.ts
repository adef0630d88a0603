// Stores a sync batch of masters in one transaction, upserted by books GUID; a copy older than the
// stored one changes nothing. A voucher type keeps its reserved name, from which voucher kinds derive.
import type { SyncMasterItem } from '@ledgerwire/shared';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { alterIdOf } from './alter-id-of.js';

export async function upsertPulledMasters(db: Kysely<Database>, companyId: number, masters: readonly SyncMasterItem[], now: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const master of masters) await upsertMaster(trx, companyId, master, now);
  });
}

async function upsertMaster(trx: Transaction<Database>, companyId: number, master: SyncMasterItem, now: string): Promise<void> {
  const fields = master.fields;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const columns = {
    master_type: master.master_type,
    name: master.name,
    master_id: master.master_id,
    alter_id: master.alter_id,
    parent: text(fields['parent']),
    reserved_name: master.master_type === 'voucher_type' ? text(fields['reserved_name']) : null,
    data: JSON.stringify({ aliases: master.aliases, fields }),
    deleted: 0,
    updated_at: now,
  };
  const existing = await trx
    .selectFrom('pulled_masters')
    .select(['id', 'alter_id', 'deleted'])
    .where('company_id', '=', companyId)
    .where('books_master_guid', '=', master.guid)
    .executeTakeFirst();
  if (!existing) {
    await trx.insertInto('pulled_masters').values({ company_id: companyId, books_master_guid: master.guid, ...columns, created_at: now }).execute();
    return;
  }
  if (alterIdOf(master.alter_id) < alterIdOf(existing.alter_id) && existing.deleted === 0) return;
  await trx.updateTable('pulled_masters').set(columns).where('id', '=', existing.id).execute();
}
