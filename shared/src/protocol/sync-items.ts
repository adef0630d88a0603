// What one item of a sync.batch carries, per kind. A voucher or master is keyed by its books GUID and
// carries the books' alter id, so the relay can upsert it and notice an alteration after acknowledgement.
// Beyond the keys, the fields the books exported travel verbatim (customer data is never normalised).
import { z } from 'zod';

const BooksIdentity = {
  guid: z.string().min(1).max(200),
  /** Increments each time the object is altered in the books (numeric string). */
  alter_id: z.string().regex(/^\d{1,20}$/, 'must be a numeric string'),
};

export const SyncVoucherItem = z.looseObject({
  ...BooksIdentity,
  /** Per-company numeric id in the books (MasterID of the voucher). */
  master_id: z.string().regex(/^\d{1,20}$/, 'must be a numeric string').nullable().optional(),
  voucher_type: z.string().min(1),
  /** The built-in type the voucher type derives from; the relay classifies on it, never on the display name. */
  reserved_name: z.string().min(1),
  voucher_number: z.string().nullable().optional(),
  /** Compact form YYYYMMDD, as the books export it. */
  voucher_date: z.string().regex(/^\d{8}$/, 'must be YYYYMMDD'),
  party_ledger: z.string().nullable().optional(),
  narration: z.string().nullable().optional(),
  /** The voucher's REMOTEID when the relay created it, so a pulled voucher can be matched to its write. */
  remote_id: z.string().nullable().optional(),
  ledger_entries: z.array(z.looseObject({ ledger: z.string(), amount: z.string() })).optional(),
  inventory_entries: z.array(z.looseObject({ stock_item: z.string() })).optional(),
  bill_allocations: z.array(z.looseObject({ name: z.string(), bill_type: z.string(), amount: z.string() })).optional(),
});
export type SyncVoucherItem = z.infer<typeof SyncVoucherItem>;

export const SyncMasterItem = z.object({
  ...BooksIdentity,
  master_id: z.string().regex(/^\d{1,20}$/, 'must be a numeric string'),
  master_type: z.enum(['group', 'ledger', 'currency', 'unit', 'godown', 'stock_group', 'stock_category', 'stock_item', 'voucher_type']),
  /** Verbatim, including trailing whitespace. */
  name: z.string().min(1),
  aliases: z.array(z.string()).default([]),
  /** Type-specific fields, values as the books give them (`Yes`/`No` strings). */
  fields: z.record(z.string(), z.unknown()),
});
export type SyncMasterItem = z.infer<typeof SyncMasterItem>;

/** A GUID the connector no longer finds in the books (found by a GUID diff). */
export const SyncDeletionItem = z.object({
  object: z.enum(['voucher', 'master']),
  guid: z.string().min(1).max(200),
});
export type SyncDeletionItem = z.infer<typeof SyncDeletionItem>;

/** A whole report snapshot (stock summary, GST summary); the latest replaces the previous. */
export const SyncReportItem = z.object({
  key: z.enum(['stock', 'gst']),
  rows: z.array(z.record(z.string(), z.unknown())).max(100_000),
});
export type SyncReportItem = z.infer<typeof SyncReportItem>;
