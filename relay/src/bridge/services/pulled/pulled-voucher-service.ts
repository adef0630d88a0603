// Pulled vouchers for callers: the filtered list (dates inclusive at both ends), one voucher by its
// transaction_id, and acknowledgement (a voucher leaves the pending queue; repeating is harmless).
import type { PulledVoucherAckOut, PulledVoucherListQuery, PulledVoucherOut } from '@ledgerwire/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.js';
import { AppError } from '../../../errors/catalogue.js';
import { parseJson, systemClock, type Clock } from '../../store/bridge-ids.js';
import { acknowledgePulledVouchers } from '../../store/pulled/acknowledge-pulled-vouchers.js';
import { findPulledVoucherByTransactionId } from '../../store/pulled/find-pulled-voucher-by-transaction-id.js';
import { listPulledVouchers } from '../../store/pulled/list-pulled-vouchers.js';
import type { PulledVoucherWithSource } from '../../store/pulled/source-job-id-column.js';

type Row = PulledVoucherWithSource;

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
    const { total, rows } = await listPulledVouchers(this.db, companyId, {
      voucher_kind: query.voucher_kind,
      voucher_type: query.voucher_type,
      status: query.status,
      start: compactDate(query.start_date),
      end: compactDate(query.end_date),
      limit: query.limit,
      offset: query.offset,
    });
    return { total, invoices: rows.map(pulledVoucherOut) };
  }

  /** One voucher of the caller's companies by its transaction_id (deleted ones included: the caller may hold the key). */
  async get(companyIds: readonly number[], transactionId: string): Promise<PulledVoucherOut> {
    if (companyIds.length === 0) throw new AppError('pulled_voucher_not_found');
    const row = await findPulledVoucherByTransactionId(this.db, companyIds, transactionId);
    if (!row) throw new AppError('pulled_voucher_not_found', { message: `No pulled voucher ${transactionId} in your companies` });
    return pulledVoucherOut(row);
  }

  async acknowledge(companyId: number, transactionIds: readonly string[]): Promise<PulledVoucherAckOut> {
    const ids = [...new Set(transactionIds)];
    const now = this.clock().toISOString();
    const { found: foundIds, acknowledged } = await acknowledgePulledVouchers(this.db, companyId, ids, now);
    const found = new Set(foundIds);
    return {
      success: true as const,
      company_id: companyId,
      acknowledged,
      already_acknowledged: foundIds.length - acknowledged,
      not_found: ids.filter((id) => !found.has(id)),
    };
  }
}
