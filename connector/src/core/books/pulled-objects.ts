// From the shared export parsers' PulledVoucher / PulledMaster to the sync protocol's items. The parsers
// do the books-side work (values verbatim, aliases always a list, bill allocations on every voucher,
// reserved names resolved); this only fits their output to the wire and remembers the company's
// voucher types, which every voucher needs for its reserved name.
import {
  parseMasterExport,
  parseVoucherExport,
  voucherTypeIndex,
  type MasterType,
  type PulledMaster,
  type PulledVoucher,
  type SyncMasterItem,
  type SyncVoucherItem,
  type VoucherTypeIndex,
} from '@ledgerwire/shared';
import type { DateWindow } from '../sync/date-windows.js';

/** Sent when a voucher type's chain does not reach a built-in type: the relay classifies it as `other`. */
export const UNRESOLVED_RESERVED_NAME = '(unresolved)';

export function toSyncMaster(master: PulledMaster): SyncMasterItem {
  return {
    guid: master.guid,
    alter_id: master.alter_id || '0',
    master_id: master.master_id || '0',
    master_type: master.master_type,
    name: master.name,
    aliases: master.aliases,
    fields: master.fields,
  };
}

export function toSyncVoucher(voucher: PulledVoucher): SyncVoucherItem {
  return { ...voucher, reserved_name: voucher.reserved_name || UNRESOLVED_RESERVED_NAME };
}

export function parseMasterGroup(type: MasterType, xml: string, knownVoucherTypes?: VoucherTypeIndex): PulledMaster[] {
  return parseMasterExport(type, xml, { knownVoucherTypes });
}

export function parseVoucherGroup(xml: string, voucherTypes: VoucherTypeIndex, window: DateWindow): SyncVoucherItem[] {
  return parseVoucherExport(xml, { voucherTypes, window: { fromDate: window.from, toDate: window.to } }).map(toSyncVoucher);
}

export function indexVoucherTypes(types: readonly PulledMaster[]): VoucherTypeIndex {
  return voucherTypeIndex(types);
}
