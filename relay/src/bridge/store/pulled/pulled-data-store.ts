// Where sync batches from the connector land (called by the gateway through the PulledDataStore
// shape in gateway/gateway-ports.ts). Vouchers and masters are upserted by books GUID; a voucher whose
// alter id rose after the caller acknowledged it is pending again; GUIDs gone from the books are
// marked deleted (kept, but left out of lists). A batch older than what is stored changes nothing.
import type { SyncMasterItem, SyncVoucherItem } from '@ledgerwire/shared';
import type { Kysely } from 'kysely';
import type { DialectCapabilities } from '../../../db/capabilities.js';
import type { Database } from '../../../db/schema.js';
import { systemClock, type Clock } from '../bridge-ids.js';
import { markPulledMastersDeleted } from './mark-pulled-masters-deleted.js';
import { markPulledVouchersDeleted } from './mark-pulled-vouchers-deleted.js';
import { saveReportSnapshot } from './save-report-snapshot.js';
import { upsertPulledMasters } from './upsert-pulled-masters.js';
import { upsertPulledVouchers } from './upsert-pulled-vouchers.js';

export { alterIdOf } from './alter-id-of.js';

export type PulledVoucher = SyncVoucherItem;
export type PulledMaster = SyncMasterItem;

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
    await upsertPulledVouchers(this.db, companyId, vouchers, now);
  }

  async upsertMasters(companyId: number, masters: readonly PulledMaster[]): Promise<void> {
    const now = this.clock().toISOString();
    try {
      await upsertPulledMasters(this.db, companyId, masters, now);
    } finally {
      this.onMastersChange();
    }
  }

  async markVouchersDeleted(companyId: number, guids: readonly string[]): Promise<void> {
    if (guids.length === 0) return;
    const now = this.clock().toISOString();
    await markPulledVouchersDeleted(this.db, companyId, guids, now);
  }

  async markMastersDeleted(companyId: number, guids: readonly string[]): Promise<void> {
    if (guids.length === 0) return;
    const now = this.clock().toISOString();
    try {
      await markPulledMastersDeleted(this.db, companyId, guids, now);
    } finally {
      this.onMastersChange();
    }
  }

  /** The latest snapshot of a report replaces the previous one. */
  async saveReportSnapshot(companyId: number, report: { key: 'stock' | 'gst'; rows: readonly unknown[] }): Promise<void> {
    await saveReportSnapshot(this.db, companyId, report, this.clock().toISOString());
  }
}
