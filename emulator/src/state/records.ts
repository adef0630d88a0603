// What the emulator keeps per company: masters and vouchers as element trees (so they re-export in
// the shape they came in) plus the few facts the rules and exports look up fast.
import type { XNode } from '../xml/xml-tree.js';

export const MASTER_TYPES = [
  'GROUP',
  'LEDGER',
  'CURRENCY',
  'UNIT',
  'GODOWN',
  'STOCKGROUP',
  'STOCKCATEGORY',
  'STOCKITEM',
  'VOUCHERTYPE',
  'COSTCATEGORY',
  'COSTCENTRE',
] as const;
export type MasterType = (typeof MASTER_TYPES)[number];

export function isMasterType(tag: string): tag is MasterType {
  return (MASTER_TYPES as readonly string[]).includes(tag);
}

/** Names TallyPrime uses for a master type in its messages (`Ledger 'X' does not exist!`). */
export const MASTER_LABELS: Record<MasterType, string> = {
  GROUP: 'Group',
  LEDGER: 'Ledger',
  CURRENCY: 'Currency',
  UNIT: 'Unit',
  GODOWN: 'Godown',
  STOCKGROUP: 'Stock Group',
  STOCKCATEGORY: 'Stock Category',
  STOCKITEM: 'Stock Item',
  VOUCHERTYPE: 'Voucher Type',
  COSTCATEGORY: 'Cost Category',
  COSTCENTRE: 'Cost Centre',
};

export interface MasterRecord {
  type: MasterType;
  masterId: number;
  alterId: number;
  guid: string;
  name: string;
  aliases: string[];
  /** Built-in objects (reserved groups, voucher types, `Profit & Loss A/c`) carry their reserved name. */
  reservedName: string;
  /**
   * Set once a voucher has named this master (ledgers, stock items, godowns, units, voucher types): from
   * then on TallyPrime refuses to delete it, even after the voucher is gone (tally_agent write-exploration-v4).
   */
  usedByVoucher?: boolean;
  tree: XNode;
}

export interface BillRow {
  ledgerName: string;
  name: string;
  billType: string;
  /** Paise, signed like the ledger entry it belongs to (debit negative). */
  amount: number;
  date: string;
}

export interface VoucherRecord {
  masterId: number;
  alterId: number;
  guid: string;
  /** The REMOTEID a client sent on create; TallyPrime keys upserts on it but reads back its own. */
  clientRemoteId: string;
  vchKey: string;
  voucherKey: number;
  date: string;
  typeName: string;
  series: string;
  number: string;
  isCancelled: boolean;
  isOptional: boolean;
  bills: BillRow[];
  tree: XNode;
}

export interface NumberingSeries {
  name: string;
  method: string;
  subMethod: string;
  preventDuplicates: boolean;
  isDefault: boolean;
}

export interface CompanyRecord {
  guid: string;
  name: string;
  booksFrom: string;
  /** The loaded period: a Voucher collection without SVFROMDATE/SVTODATE sees only this. */
  periodFrom: string;
  periodTo: string;
  stateName: string;
  gstEnabled: boolean;
  inventoryEnabled: boolean;
  isOpen: boolean;
  sortOrder: number;
  nextMasterId: number;
  nextVoucherId: number;
  nextAlterId: number;
  altMstId: number;
  altVchId: number;
  /** Per voucher date (day number): last VCHKEY sequence used. */
  dayKeys: Record<string, number>;
  /** Per voucher type + series: last automatic number. */
  lastNumbers: Record<string, number>;
}
