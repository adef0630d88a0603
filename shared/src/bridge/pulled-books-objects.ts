// Vouchers and masters as read out of the books by the connector's sync (books-xml/export-parse), before
// the relay stores them. A pulled voucher keeps the write document's shape (ledger_name, is_debit,
// bill_allocations, inventory_entries…) so it can be pushed back unchanged (contract, bill allocation
// rule 5), and also carries what the sync protocol keys on (guid, alter_id, reserved_name, and `ledger`
// beside `ledger_name` on each ledger entry). Amounts are the books' decimal text without its sign;
// the side is is_debit.
import { z } from 'zod';
import { MasterType, NumberingSeries } from './master-document.js';
import { VoucherKind } from './voucher-kind.js';

const NumericText = z.string().regex(/^\d+$/, 'must be a numeric string');
const AmountText = z.string().regex(/^\d+(\.\d+)?$/, 'must be a decimal string');

export const PulledBillAllocation = z
  .object({
    name: z.string().optional().describe('Left out for "On Account"'),
    bill_type: z.string(),
    amount: AmountText,
    /** Side of the allocation (the same as its ledger entry's, but for rare mixed entries). */
    is_debit: z.boolean(),
    credit_period: z.string().optional(),
  })
  .meta({ id: 'PulledBillAllocation' });
export type PulledBillAllocation = z.infer<typeof PulledBillAllocation>;

export const PulledLedgerEntry = z
  .object({
    ledger_name: z.string(),
    /** Same as ledger_name; the key the sync protocol reads. */
    ledger: z.string(),
    amount: AmountText,
    is_debit: z.boolean(),
    is_party: z.boolean(),
    bill_allocations: z.array(PulledBillAllocation),
  })
  .meta({ id: 'PulledLedgerEntry' });
export type PulledLedgerEntry = z.infer<typeof PulledLedgerEntry>;

export const PulledInventoryEntry = z
  .object({
    stock_item: z.string(),
    quantity: z.number().optional(),
    unit: z.string().optional(),
    rate: z.number().optional(),
    amount: AmountText,
    is_debit: z.boolean(),
    godown: z.string().optional(),
    batch: z.string().optional(),
    ledger_name: z.string().optional(),
  })
  .meta({ id: 'PulledInventoryEntry' });
export type PulledInventoryEntry = z.infer<typeof PulledInventoryEntry>;

/** Every bill allocation of the voucher, flattened, with the ledger it sits on (contract: pulled voucher). */
export const PulledVoucherBill = z
  .object({ ledger_name: z.string(), name: z.string(), bill_type: z.string(), amount: AmountText, is_debit: z.boolean() })
  .meta({ id: 'PulledVoucherBill' });
export type PulledVoucherBill = z.infer<typeof PulledVoucherBill>;

export const PulledVoucher = z
  .object({
    guid: z.string().min(1),
    master_id: NumericText.nullable(),
    alter_id: NumericText,
    remote_id: z.string().nullable(),
    voucher_kind: VoucherKind,
    voucher_type: z.string(),
    /** Reserved name of the built-in type the voucher type derives from; '' when it could not be resolved. */
    reserved_name: z.string(),
    voucher_number: z.string(),
    voucher_date: z.string().regex(/^\d{8}$/).describe('YYYYMMDD'),
    date: z.string().describe('The same date, ISO YYYY-MM-DD, as a write takes it'),
    party_ledger: z.string(),
    narration: z.string(),
    reference: z.string(),
    reference_date: z.string().optional().describe('ISO YYYY-MM-DD, when the books have one'),
    is_cancelled: z.boolean(),
    is_optional: z.boolean(),
    view: z.string().describe('Accounting Voucher View, Invoice Voucher View, …'),
    gst: z
      .object({
        party_gstin: z.string().optional(),
        place_of_supply: z.string().optional(),
        registration_type: z.string().optional(),
        state: z.string().optional(),
      })
      .optional(),
    ledger_entries: z.array(PulledLedgerEntry),
    inventory_entries: z.array(PulledInventoryEntry),
    bill_allocations: z.array(PulledVoucherBill),
  })
  .meta({ id: 'PulledVoucher' });
export type PulledVoucher = z.infer<typeof PulledVoucher>;

export const PulledMaster = z
  .object({
    master_type: MasterType,
    guid: z.string(),
    master_id: z.string(),
    alter_id: z.string(),
    /** Verbatim, never trimmed (value rule 10). */
    name: z.string(),
    /** Always a list, [] when none (value rule 2). */
    aliases: z.array(z.string()),
    fields: z.record(z.string(), z.union([z.string(), z.array(NumberingSeries)])),
  })
  .meta({ id: 'PulledMaster' });
export type PulledMaster = z.infer<typeof PulledMaster>;

/** A company loaded in the books, with the high-water marks of its master and voucher alterations. */
export const BooksCompany = z
  .object({
    name: z.string(),
    guid: z.string(),
    alt_mst_id: z.string(),
    alt_vch_id: z.string(),
    books_from: z.string(),
    starting_from: z.string(),
    ending_at: z.string(),
    last_voucher_date: z.string(),
  })
  .meta({ id: 'BooksCompany' });
export type BooksCompany = z.infer<typeof BooksCompany>;
