// Stores one sync.batch through the bridge's PulledDataStore: vouchers and masters upserted by GUID
// (alter ids decide what is pending again), deletions marked, report snapshots replaced. Upserts are
// idempotent, so a batch sent again after a lost sync.ack changes nothing.
import type { SyncBatchMessage } from '@ledgerwire/shared';
import type { GatewayPulledData } from './gateway-ports.js';

/** Returns how many items were stored. */
export async function storeSyncBatch(store: GatewayPulledData, batch: SyncBatchMessage): Promise<number> {
  const companyId = batch.company_id;
  switch (batch.kind) {
    case 'vouchers':
      if (batch.items.length > 0) await store.upsertVouchers(companyId, batch.items);
      return batch.items.length;
    case 'masters':
      if (batch.items.length > 0) await store.upsertMasters(companyId, batch.items);
      return batch.items.length;
    case 'deletions': {
      const vouchers = batch.items.filter((i) => i.object === 'voucher').map((i) => i.guid);
      const masters = batch.items.filter((i) => i.object === 'master').map((i) => i.guid);
      if (vouchers.length > 0) await store.markVouchersDeleted(companyId, vouchers);
      if (masters.length > 0) await store.markMastersDeleted(companyId, masters);
      return batch.items.length;
    }
    case 'report':
      for (const report of batch.items) await store.saveReportSnapshot(companyId, { key: report.key, rows: report.rows });
      return batch.items.length;
  }
}
