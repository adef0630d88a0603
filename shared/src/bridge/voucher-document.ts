// The voucher document a caller writes (contract: "Voucher document (write)"), the nine write endpoints
// and which parts of the document each allows. Validation messages are written for the integrator who
// reads them in a 422: they say what is wrong and what to send instead.
import { z } from 'zod';
import { planInventoryPostings } from './inventory-postings.js';
import type { VoucherKind } from './voucher-kind.js';
import { Amount, Quantity, Rate } from './wire-decimal.js';
import { hasXmlIllegalCharacter, IsoDate, MasterName, xmlText } from './wire-text.js';

export const BILL_TYPES = ['Agst Ref', 'New Ref', 'Advance', 'On Account'] as const;
export const BillType = z.enum(BILL_TYPES, {
  error: `must be one of ${BILL_TYPES.map((t) => `"${t}"`).join(', ')}`,
});
export type BillType = z.infer<typeof BillType>;

const billAllocationShape = {
  name: z.string().min(1, 'must not be empty; leave it out only for an "On Account" allocation').max(200)
    .refine((v) => !hasXmlIllegalCharacter(v), 'contains a control character the books cannot store').optional()
    .describe('Bill reference. Omitted only for "On Account".'),
  bill_type: BillType.optional().describe('Default "Agst Ref" when a name is given, "On Account" when not'),
  amount: Amount.describe('Size of the allocation; it takes the side of its ledger entry'),
  credit_period: xmlText(40).optional().describe('For a "New Ref": credit period as the books write it, e.g. "30 Days"'),
  is_debit: z.boolean().optional().describe('Side of the allocation, only when it differs from its ledger entry (rare)'),
};

export const BillAllocationIn = z
  .object(billAllocationShape)
  .superRefine((bill, ctx) => {
    const type = bill.bill_type ?? (bill.name === undefined ? 'On Account' : 'Agst Ref');
    if (type !== 'On Account' && bill.name === undefined) {
      ctx.addIssue({ code: 'custom', path: ['name'], message: `is required for a "${type}" allocation: give the bill reference` });
    }
    if (type === 'On Account' && bill.name !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['name'],
        message: 'must be left out for an "On Account" allocation (the books drop it); use "Agst Ref" or "New Ref" to name a bill',
      });
    }
  })
  .transform((bill) => ({
    ...bill,
    bill_type: bill.bill_type ?? (bill.name === undefined ? ('On Account' as const) : ('Agst Ref' as const)),
  }))
  .meta({ id: 'BillAllocationIn' });
export type BillAllocationIn = z.infer<typeof BillAllocationIn>;

export const LedgerEntryIn = z
  .object({
    ledger_name: MasterName.describe('Exact name of a ledger in the company'),
    amount: Amount,
    is_debit: z.boolean({ error: 'must be true (debit) or false (credit)' }),
    is_party: z.boolean({ error: 'must be true or false' }).default(false).describe('Marks the party line'),
    bill_allocations: z.array(BillAllocationIn).default([]).describe('Bills this line opens or settles'),
  })
  .meta({ id: 'LedgerEntryIn' });
export type LedgerEntryIn = z.infer<typeof LedgerEntryIn>;

export const InventoryEntryIn = z
  .object({
    stock_item: MasterName.describe('Exact name of a stock item in the company'),
    quantity: Quantity,
    unit: MasterName.optional().describe("Unit symbol as in the books, e.g. 'Nos'; the item's base unit"),
    rate: Rate.optional().describe('Price per unit; amount ÷ quantity when left out'),
    amount: Amount.describe('Value of the line'),
    godown: MasterName.optional().describe('Exact godown name; books default "Main Location" when left out'),
    batch: MasterName.optional().describe('Batch name when the item keeps batches; default "Primary Batch"'),
    ledger_name: MasterName.optional().describe(
      'Sales or purchase ledger the line posts to; when left out, the one non-party ledger entry on the items\' side',
    ),
    is_debit: z.boolean().optional().describe('true for goods coming in; defaults from the kind of voucher'),
  })
  .meta({ id: 'InventoryEntryIn' });
export type InventoryEntryIn = z.infer<typeof InventoryEntryIn>;

export const GstBlockIn = z
  .object({
    party_gstin: xmlText(15).optional().describe('GSTIN of the party'),
    place_of_supply: xmlText(60).optional().describe('State name, e.g. "Karnataka"'),
    registration_type: xmlText(60).optional().describe('e.g. "Regular", "Unregistered/Consumer", "Composition"'),
    state: xmlText(60).optional().describe("Party's state"),
  })
  .meta({ id: 'GstBlockIn' });
export type GstBlockIn = z.infer<typeof GstBlockIn>;

const documentShape = {
  voucher_number: z.string({ error: 'must be a string' }).min(1, 'must not be empty').max(60, 'must be at most 60 characters')
    .refine((v) => !hasXmlIllegalCharacter(v) && !/[\r\n\t]/.test(v), 'must not contain control characters or line breaks'),
  voucher_type: MasterName.describe("The company's voucher type name, e.g. 'Sales' or a custom 'Tax Invoice'"),
  party_ledger: MasterName.describe('Exact name of the party ledger (optional on journals and contras, which often have no party)'),
  date: IsoDate.describe('Voucher date, ISO YYYY-MM-DD'),
  narration: xmlText(4000).optional(),
  reference: xmlText(100).optional().describe("The party's document number (e.g. supplier invoice no.)"),
  reference_date: IsoDate.optional(),
  inventory_entries: z.array(InventoryEntryIn, { error: 'must be a list' }).default([]),
  ledger_entries: z.array(LedgerEntryIn, { error: 'must be a list' }).default([]),
  gst: GstBlockIn.optional(),
};

const writeShape = {
  transaction_id: z.string().min(1, 'must not be empty').max(200).optional()
    .describe('Your own id for this write; a repeat with the same id returns the first acceptance'),
  books_voucher_guid: z.string().min(1, 'must not be empty').max(200).optional()
    .describe(
      'GUID of a voucher this API booked (a completed write’s books_voucher_guid), to alter it in place instead of creating a new one. ' +
        'A voucher booked in the books by other means cannot be altered in place (422): cancel or delete it (POST /api/v1/vouchers/{voucher}/cancel | /delete) and write a new one',
    ),
};

/** Journals and contras often have no party: TallyPrime books them without PARTYLEDGERNAME. */
const partyOptionalShape = { ...documentShape, party_ledger: documentShape.party_ledger.optional() };

type DocumentShape = z.infer<z.ZodObject<typeof partyOptionalShape>>;

function checkDocument(doc: DocumentShape, ctx: z.RefinementCtx): void {
  if (doc.ledger_entries.length === 0 && doc.inventory_entries.length === 0) {
    ctx.addIssue({ code: 'custom', path: ['ledger_entries'], message: 'a voucher needs entries: add ledger_entries (and inventory_entries for goods)' });
  }
}

/** A voucher document of any kind: party_ledger is optional here because journals and contras may leave it out. */
export const VoucherDocumentIn = z.object(partyOptionalShape).superRefine(checkDocument).meta({ id: 'VoucherDocumentIn' });
export type VoucherDocumentIn = z.infer<typeof VoucherDocumentIn>;

/** The write body of the seven endpoints whose vouchers have a party (invoices, orders, notes, purchases, receipts, payments). */
export const VoucherWriteIn = z
  .object({ ...documentShape, ...writeShape })
  .superRefine(checkDocument)
  .meta({ id: 'VoucherWriteIn' });

/** The write body of journals and contras: the same document, party_ledger optional. */
export const PartyOptionalVoucherWriteIn = z
  .object({ ...partyOptionalShape, ...writeShape })
  .superRefine(checkDocument)
  .meta({ id: 'PartyOptionalVoucherWriteIn' });

/** Any parsed write body (the wider of the two schemas: party_ledger may be absent). */
export type VoucherWriteIn = z.infer<typeof PartyOptionalVoucherWriteIn>;

export const VOUCHER_WRITE_PATHS = [
  'invoices', 'orders', 'credit-notes', 'debit-notes', 'purchases', 'receipts', 'payments', 'contras', 'journals',
] as const;
export type VoucherWritePath = (typeof VOUCHER_WRITE_PATHS)[number];

export interface VoucherWriteEndpoint {
  voucher_kind: VoucherKind;
  /** Reserved name of the built-in type the written voucher's type must derive from. */
  reserved_voucher_type: string;
  /** Human label used in messages. */
  label: string;
  /** Whether the voucher must name its party ledger: journals and contras often have none. */
  party: 'required' | 'optional';
  /** Contract table "Which parts apply per kind". */
  inventory: 'optional' | 'usually' | 'not_allowed';
  ledger_entries: 'required' | 'optional';
  /** Side of the goods when a line does not say: inward (debit) or outward (credit); null without goods. */
  items_debit: boolean | null;
}

export const VOUCHER_WRITE_ENDPOINTS: Readonly<Record<VoucherWritePath, VoucherWriteEndpoint>> = {
  'invoices': { voucher_kind: 'sales', reserved_voucher_type: 'Sales', label: 'sales invoice', party: 'required', inventory: 'optional', ledger_entries: 'required', items_debit: false },
  'orders': { voucher_kind: 'sales_order', reserved_voucher_type: 'Sales Order', label: 'sales order', party: 'required', inventory: 'usually', ledger_entries: 'optional', items_debit: false },
  'credit-notes': { voucher_kind: 'credit_note', reserved_voucher_type: 'Credit Note', label: 'credit note', party: 'required', inventory: 'usually', ledger_entries: 'required', items_debit: true },
  'debit-notes': { voucher_kind: 'debit_note', reserved_voucher_type: 'Debit Note', label: 'debit note', party: 'required', inventory: 'usually', ledger_entries: 'required', items_debit: false },
  'purchases': { voucher_kind: 'purchase', reserved_voucher_type: 'Purchase', label: 'purchase', party: 'required', inventory: 'optional', ledger_entries: 'required', items_debit: true },
  'receipts': { voucher_kind: 'receipt', reserved_voucher_type: 'Receipt', label: 'receipt', party: 'required', inventory: 'not_allowed', ledger_entries: 'required', items_debit: null },
  'payments': { voucher_kind: 'payment', reserved_voucher_type: 'Payment', label: 'payment', party: 'required', inventory: 'not_allowed', ledger_entries: 'required', items_debit: null },
  'contras': { voucher_kind: 'contra', reserved_voucher_type: 'Contra', label: 'contra', party: 'optional', inventory: 'not_allowed', ledger_entries: 'required', items_debit: null },
  'journals': { voucher_kind: 'journal', reserved_voucher_type: 'Journal', label: 'journal', party: 'optional', inventory: 'not_allowed', ledger_entries: 'required', items_debit: null },
};

/** The route body schema of an endpoint: whether party_ledger is required is the only difference. */
export function voucherWriteBodyFor(path: VoucherWritePath): typeof VoucherWriteIn | typeof PartyOptionalVoucherWriteIn {
  return VOUCHER_WRITE_ENDPOINTS[path].party === 'required' ? VoucherWriteIn : PartyOptionalVoucherWriteIn;
}

/** Side items take by default on a kind of voucher (inward → debit); undefined when the kind has no goods rule. */
export function defaultItemsDebitForKind(kind: VoucherKind): boolean | undefined {
  const endpoint = Object.values(VOUCHER_WRITE_ENDPOINTS).find((e) => e.voucher_kind === kind);
  if (endpoint && endpoint.items_debit !== null) return endpoint.items_debit;
  if (kind === 'purchase_order') return true;
  return undefined;
}

function checkEndpointParts(path: VoucherWritePath, doc: DocumentShape, ctx: z.RefinementCtx): void {
  const endpoint = VOUCHER_WRITE_ENDPOINTS[path];
  if (endpoint.inventory === 'not_allowed' && doc.inventory_entries.length > 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['inventory_entries'],
      message: `are not allowed on a ${endpoint.label}: it moves money only. Remove them, or post goods to /api/v1/invoices or /api/v1/purchases`,
    });
  }
  if (endpoint.ledger_entries === 'required' && doc.ledger_entries.length === 0) {
    ctx.addIssue({ code: 'custom', path: ['ledger_entries'], message: `a ${endpoint.label} needs at least one ledger entry` });
  }
  if (doc.inventory_entries.length > 0 && endpoint.inventory !== 'not_allowed') {
    const planned = planInventoryPostings(doc.ledger_entries, doc.inventory_entries, endpoint.items_debit ?? undefined);
    if (!planned.ok) for (const issue of planned.issues) ctx.addIssue({ code: 'custom', ...issue });
  }
}

const endpointSchemas = new Map<VoucherWritePath, z.ZodType<VoucherWriteIn>>();

/** The write body schema of one endpoint: the document, the write fields, and that kind's parts rules. */
export function voucherWriteSchemaFor(path: VoucherWritePath): z.ZodType<VoucherWriteIn> {
  let schema = endpointSchemas.get(path);
  if (!schema) {
    const shape = VOUCHER_WRITE_ENDPOINTS[path].party === 'required' ? documentShape : partyOptionalShape;
    schema = z
      .object({ ...shape, ...writeShape })
      .superRefine((doc, ctx) => {
        checkDocument(doc, ctx);
        checkEndpointParts(path, doc, ctx);
      });
    endpointSchemas.set(path, schema);
  }
  return schema;
}

const endpointPartsSchemas = new Map<VoucherWritePath, z.ZodType<VoucherWriteIn>>();

/**
 * Only that kind's parts rules, for a body VoucherWriteIn already parsed (the write routes' body
 * schema): the issues voucherWriteSchemaFor(path) would add to it, without parsing the document again.
 */
export function voucherEndpointPartsSchemaFor(path: VoucherWritePath): z.ZodType<VoucherWriteIn> {
  let schema = endpointPartsSchemas.get(path);
  if (!schema) {
    schema = z.custom<VoucherWriteIn>().superRefine((doc, ctx) => checkEndpointParts(path, doc, ctx));
    endpointPartsSchemas.set(path, schema);
  }
  return schema;
}

/** One line per problem, `field.path: message`, for logs and error details. */
export function describeVoucherIssues(error: z.ZodError): { field: string; message: string }[] {
  return error.issues.map((issue) => ({ field: issue.path.map(String).join('.'), message: issue.message }));
}
