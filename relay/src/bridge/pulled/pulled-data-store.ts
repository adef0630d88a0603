// Where sync batches from the connector land (called by the gateway through the PulledDataStore
// shape in gateway/gateway-ports.ts). Vouchers and masters are upserted by books GUID; a voucher whose
// alter id rose after the caller acknowledged it is pending again; GUIDs gone from the books are
// marked deleted (kept, but left out of lists). A batch older than what is stored changes nothing.
import { voucherKindFromReservedName, type SyncMasterItem, type SyncVoucherItem } from '@ledgerwire/shared';
import type { Kysely, Transaction } from 'kysely';
import type { DialectCapabilities } from '../../db/capabilities.js';
import type { Database } from '../../db/schema.js';
import { uuidV7 } from '../../db/time-ordered-ids.js';
import { systemClock, type Clock } from '../bridge-ids.js';

export type PulledVoucher = SyncVoucherItem;
export type PulledMaster = SyncMasterItem;

/** An alter id as a number to compare by (the books count up); anything else sorts before every real one. */
export function alterIdOf(value: string | null | undefined): bigint {
  return value && /^\d+$/.test(value) ? BigInt(value) : -1n;
}

export class PulledDataStore {
  private readonly db: Kysely<Database>;
  private readonly clock: Clock;
  /** Told after pulled masters changed (the voucher-type cache of the write path starts over). */
  private readonly onMastersChange: () => void;

  constructor(deps: { db: Kysely<Database>; capabilities: DialectCapabilities; clock?: Clock; onMastersChange?: () => void }) {
    this.db = deps.db;
    this.clock = deps.clock ?? systemClock;
    this.onMastersChange = deps.onMastersChange ?? (() => undefined);
  }

  async upsertVouchers(companyId: number, vouchers: readonly PulledVoucher[]): Promise<void> {
    const now = this.clock().toISOString();
    await this.db.transaction().execute(async (trx) => {
      for (const voucher of vouchers) await upsertVoucher(trx, companyId, voucher, now);
    });
  }

  async upsertMasters(companyId: number, masters: readonly PulledMaster[]): Promise<void> {
    const now = this.clock().toISOString();
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const master of masters) await upsertMaster(trx, companyId, master, now);
      });
    } finally {
      this.onMastersChange();
    }
  }

  async markVouchersDeleted(companyId: number, guids: readonly string[]): Promise<void> {
    if (guids.length === 0) return;
    const now = this.clock().toISOString();
    for (let i = 0; i < guids.length; i += 500) {
      await this.db
        .updateTable('pulled_vouchers')
        .set({ deleted: 1, updated_at: now })
        .where('company_id', '=', companyId)
        .where('books_voucher_guid', 'in', guids.slice(i, i + 500))
        .execute();
    }
  }

  async markMastersDeleted(companyId: number, guids: readonly string[]): Promise<void> {
    if (guids.length === 0) return;
    const now = this.clock().toISOString();
    try {
      for (let i = 0; i < guids.length; i += 500) {
        await this.db
          .updateTable('pulled_masters')
          .set({ deleted: 1, updated_at: now })
          .where('company_id', '=', companyId)
          .where('books_master_guid', 'in', guids.slice(i, i + 500))
          .execute();
      }
    } finally {
      this.onMastersChange();
    }
  }

  /** The latest snapshot of a report replaces the previous one. */
  async saveReportSnapshot(companyId: number, report: { key: 'stock' | 'gst'; rows: readonly unknown[] }): Promise<void> {
    const values = { rows: JSON.stringify(report.rows), row_count: report.rows.length, updated_at: this.clock().toISOString() };
    await this.db
      .insertInto('report_snapshots')
      .values({ company_id: companyId, report_key: report.key, ...values })
      .onConflict((oc) => oc.columns(['company_id', 'report_key']).doUpdateSet(values))
      .execute();
  }
}

async function upsertVoucher(trx: Transaction<Database>, companyId: number, voucher: PulledVoucher, now: string): Promise<void> {
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

async function upsertMaster(trx: Transaction<Database>, companyId: number, master: PulledMaster, now: string): Promise<void> {
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
