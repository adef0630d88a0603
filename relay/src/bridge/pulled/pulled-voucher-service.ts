// Pulled vouchers for callers: the filtered list (dates inclusive at both ends), one voucher by its
// transaction_id, and acknowledgement (a voucher leaves the pending queue; repeating is harmless).
import type { PulledVoucherAckOut, PulledVoucherListQuery, PulledVoucherOut } from '@ledgerwire/shared';
import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../errors/catalogue.js';
import type { PulledVouchersTable } from '../../db/bridge-tables.js';
import { parseJson, systemClock, type Clock } from '../bridge-ids.js';

type Row = Selectable<PulledVouchersTable> & { source_job_id: string | null };

/**
 * The job that booked the voucher: the first voucher job of its company whose outcome carried its GUID
 * (the books read REMOTEID back as the GUID itself, so the key the connector sent cannot link them).
 */
function sourceJobId(eb: ExpressionBuilder<Database, 'pulled_vouchers'>) {
  return eb
    .selectFrom('transactions as t')
    .select('t.job_id')
    .whereRef('t.company_id', '=', 'pulled_vouchers.company_id')
    .whereRef('t.books_voucher_guid', '=', 'pulled_vouchers.books_voucher_guid')
    .where('t.job_type', '=', 'voucher')
    .orderBy('t.id')
    .limit(1)
    .as('source_job_id');
}

/** `YYYY-MM-DD` or `YYYYMMDD` → the compact form pulled dates are stored in. */
export function compactDate(value: string | undefined): string | undefined {
  return value?.replaceAll('-', '');
}

function listOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? (value.filter((v) => typeof v === 'object' && v !== null) as Record<string, unknown>[]) : [];
}

export function pulledVoucherOut(row: Row): PulledVoucherOut {
  const data = parseJson<Record<string, unknown>>(row.data, {});
  const { guid: _guid, alter_id: _alter, master_id: masterId, remote_id: _remoteId, reserved_name: _reserved, ...rest } = data;
  return {
    ...rest,
    transaction_id: row.transaction_id,
    books_voucher_guid: row.books_voucher_guid,
    books_master_id: typeof masterId === 'string' ? masterId : null,
    books_alter_id: row.alter_id,
    voucher_kind: row.voucher_kind,
    voucher_type: row.voucher_type,
    voucher_number: row.voucher_number,
    voucher_date: row.voucher_date,
    party_ledger: row.party_ledger,
    status: row.status,
    bill_allocations: listOf(data['bill_allocations']),
    ledger_entries: listOf(data['ledger_entries']),
    inventory_entries: listOf(data['inventory_entries']),
    source_job_id: row.source_job_id,
    acknowledged_at: row.acknowledged_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export class PulledVoucherService {
  private readonly db: Kysely<Database>;
  private readonly clock: Clock;

  constructor(deps: { db: Kysely<Database>; clock?: Clock }) {
    this.db = deps.db;
    this.clock = deps.clock ?? systemClock;
  }

  async list(companyId: number, query: PulledVoucherListQuery): Promise<{ total: number; invoices: PulledVoucherOut[] }> {
    let base = this.db.selectFrom('pulled_vouchers').where('company_id', '=', companyId).where('deleted', '=', 0);
    if (query.voucher_kind) base = base.where('voucher_kind', '=', query.voucher_kind);
    if (query.voucher_type) base = base.where('voucher_type', '=', query.voucher_type);
    if (query.status) base = base.where('status', '=', query.status);
    const start = compactDate(query.start_date);
    const end = compactDate(query.end_date);
    if (start) base = base.where('voucher_date', '>=', start);
    if (end) base = base.where('voucher_date', '<=', end);
    const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const rows = await base.selectAll('pulled_vouchers').select(sourceJobId).orderBy('voucher_date').orderBy('id').limit(query.limit).offset(query.offset).execute();
    return { total: Number(total), invoices: rows.map(pulledVoucherOut) };
  }

  /** One voucher of the caller's companies by its transaction_id (deleted ones included: the caller may hold the key). */
  async get(companyIds: readonly number[], transactionId: string): Promise<PulledVoucherOut> {
    if (companyIds.length === 0) throw new AppError('pulled_voucher_not_found');
    const row = await this.db
      .selectFrom('pulled_vouchers')
      .selectAll('pulled_vouchers')
      .select(sourceJobId)
      .where('transaction_id', '=', transactionId)
      .where('company_id', 'in', [...companyIds])
      .executeTakeFirst();
    if (!row) throw new AppError('pulled_voucher_not_found', { message: `No pulled voucher ${transactionId} in your companies` });
    return pulledVoucherOut(row);
  }

  async acknowledge(companyId: number, transactionIds: readonly string[]): Promise<PulledVoucherAckOut> {
    const ids = [...new Set(transactionIds)];
    const now = this.clock().toISOString();
    return this.db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('pulled_vouchers')
        .select(['id', 'transaction_id', 'status', 'alter_id'])
        .where('company_id', '=', companyId)
        .where('transaction_id', 'in', ids)
        .execute();
      let acknowledged = 0;
      for (const row of rows.filter((r) => r.status === 'pending')) {
        const result = await trx
          .updateTable('pulled_vouchers')
          .set({ status: 'acknowledged', acknowledged_alter_id: row.alter_id, acknowledged_at: now })
          .where('id', '=', row.id)
          .where('status', '=', 'pending')
          .executeTakeFirst();
        acknowledged += Number(result.numUpdatedRows);
      }
      const found = new Set(rows.map((r) => r.transaction_id));
      return {
        success: true as const,
        company_id: companyId,
        acknowledged,
        already_acknowledged: rows.length - acknowledged,
        not_found: ids.filter((id) => !found.has(id)),
      };
    });
  }
}
