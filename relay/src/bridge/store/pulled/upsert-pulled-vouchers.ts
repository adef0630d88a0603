// Stores a sync batch of vouchers in one transaction, upserted by books GUID: a copy older than the
// stored one changes nothing, and one altered since the caller acknowledged it (or back from deletion) is pending again.
import { voucherKindFromReservedName, type SyncVoucherItem } from '@ledgerwire/shared';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { uuidV7 } from '../../../db/time-ordered-ids.js';
import { alterIdOf } from './alter-id-of.js';

export async function upsertPulledVouchers(db: Kysely<Database>, companyId: number, vouchers: readonly SyncVoucherItem[], now: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const voucher of vouchers) await upsertVoucher(trx, companyId, voucher, now);
  });
}

async function upsertVoucher(trx: Transaction<Database>, companyId: number, voucher: SyncVoucherItem, now: string): Promise<void> {
  const columns = {
    alter_id: voucher.alter_id,
    voucher_kind: voucherKindFromReservedName(voucher.reserved_name),
    voucher_type: voucher.voucher_type,
    voucher_number: voucher.voucher_number ?? null,
    voucher_date: voucher.voucher_date,
    party_ledger: voucher.party_ledger ?? null,
    data: JSON.stringify(voucher),
    deleted: 0,
    updated_at: now,
  };
  const existing = await trx
    .selectFrom('pulled_vouchers')
    .select(['id', 'alter_id', 'status', 'acknowledged_alter_id', 'deleted'])
    .where('company_id', '=', companyId)
    .where('books_voucher_guid', '=', voucher.guid)
    .executeTakeFirst();
  if (!existing) {
    await trx
      .insertInto('pulled_vouchers')
      .values({
        company_id: companyId,
        // Time first (db/time-ordered-ids.ts): a sync inserts thousands, and the column's unique index grows at its end.
        transaction_id: `pv_${uuidV7()}`,
        books_voucher_guid: voucher.guid,
        ...columns,
        status: 'pending',
        acknowledged_alter_id: null,
        acknowledged_at: null,
        created_at: now,
      })
      .execute();
    return;
  }
  const incoming = alterIdOf(voucher.alter_id);
  if (incoming < alterIdOf(existing.alter_id) && existing.deleted === 0) return; // an older copy
  const alteredSinceAck = existing.status === 'acknowledged' && incoming > alterIdOf(existing.acknowledged_alter_id ?? existing.alter_id);
  const reappeared = existing.deleted === 1;
  await trx
    .updateTable('pulled_vouchers')
    // Pending again: the acknowledgement it had no longer covers it, so neither does its time.
    .set({ ...columns, ...(alteredSinceAck || reappeared ? { status: 'pending' as const, acknowledged_at: null } : {}) })
    .where('id', '=', existing.id)
    .execute();
}
