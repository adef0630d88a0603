// Masters (reference data) of the books: the nine types of the contract, the write body of
// `POST /api/v1/masters/{type}` for each, and the `fields` object of a pulled master per type
// (contract: "Fields per type" and value rules 1-10). Field names are the same on write and on pull.
import { z } from 'zod';
import { SignedAmount } from './wire-decimal.js';
import { MasterName, xmlText, YesNo } from './wire-text.js';

export const MASTER_TYPES = [
  'group', 'ledger', 'currency', 'unit', 'godown', 'stock_group', 'stock_category', 'stock_item', 'voucher_type',
] as const;
export const MasterType = z.enum(MASTER_TYPES, {
  error: `must be one of ${MASTER_TYPES.join(', ')}`,
}).meta({ id: 'MasterType' });
export type MasterType = z.infer<typeof MasterType>;

/** Scalar fields of a pulled master, per type, in the contract's order. */
export const PULLED_MASTER_FIELD_NAMES = {
  group: ['parent', 'is_subledger', 'is_deemed_positive', 'is_revenue', 'is_billwise'],
  ledger: ['parent', 'currency', 'opening_balance', 'gstin', 'gst_registration_type', 'mobile', 'email', 'is_billwise'],
  currency: ['mailing_name', 'original_name', 'expanded_symbol', 'iso_code', 'decimal_places'],
  unit: ['is_simple_unit', 'decimal_places', 'base_units', 'additional_units'],
  godown: ['parent'],
  stock_group: ['parent', 'base_units', 'is_batchwise', 'closing_balance', 'closing_value'],
  stock_category: ['parent'],
  stock_item: ['parent', 'category', 'base_units', 'opening_balance', 'closing_balance', 'closing_value', 'gst_applicable'],
  voucher_type: ['parent', 'reserved_name', 'numbering_method', 'numbering_sub_method', 'is_active', 'affects_stock'],
} as const satisfies Record<MasterType, readonly string[]>;

export const NUMBERING_METHODS = ['Manual', 'Automatic (Manual Override)', 'Automatic', 'Multi-user Auto', 'None'] as const;

/** One numbering series of a voucher type (value rule 6). */
export const NumberingSeries = z
  .object({
    name: z.string(),
    numbering_method: z.string(),
    numbering_sub_method: z.string(),
    prevent_duplicates: z.string(),
    is_default: z.string(),
  })
  .meta({ id: 'NumberingSeries' });
export type NumberingSeries = z.infer<typeof NumberingSeries>;

function stringFields<T extends readonly string[]>(names: T) {
  return Object.fromEntries(names.map((n) => [n, z.string()])) as { [K in T[number]]: z.ZodString };
}

/** `payload.fields` of a pulled master, per type. Values verbatim strings; `''` when the books have none. */
export const PulledMasterFields = {
  group: z.object(stringFields(PULLED_MASTER_FIELD_NAMES.group)).meta({ id: 'PulledGroupFields' }),
  ledger: z.object(stringFields(PULLED_MASTER_FIELD_NAMES.ledger)).meta({ id: 'PulledLedgerFields' }),
  currency: z.object(stringFields(PULLED_MASTER_FIELD_NAMES.currency)).meta({ id: 'PulledCurrencyFields' }),
  unit: z.object(stringFields(PULLED_MASTER_FIELD_NAMES.unit)).meta({ id: 'PulledUnitFields' }),
  godown: z.object(stringFields(PULLED_MASTER_FIELD_NAMES.godown)).meta({ id: 'PulledGodownFields' }),
  stock_group: z.object(stringFields(PULLED_MASTER_FIELD_NAMES.stock_group)).meta({ id: 'PulledStockGroupFields' }),
  stock_category: z.object(stringFields(PULLED_MASTER_FIELD_NAMES.stock_category)).meta({ id: 'PulledStockCategoryFields' }),
  stock_item: z.object(stringFields(PULLED_MASTER_FIELD_NAMES.stock_item)).meta({ id: 'PulledStockItemFields' }),
  voucher_type: z
    .object({ ...stringFields(PULLED_MASTER_FIELD_NAMES.voucher_type), numbering_series: z.array(NumberingSeries) })
    .meta({ id: 'PulledVoucherTypeFields' }),
} as const;
export type PulledMasterFields = { [K in MasterType]: z.infer<(typeof PulledMasterFields)[K]> };

// --- write bodies -------------------------------------------------------------------------------------

const aliases = z
  .array(MasterName, { error: 'must be a list of names' })
  .max(20, 'at most 20 aliases')
  .default([])
  .describe('Other names the master answers to');

/** A signed amount as the books write it: negative for a debit balance ("-1500.00"); exact, as voucher amounts. */
const BooksAmount = SignedAmount.describe('Negative for a debit balance, positive for a credit balance');

const DecimalPlaces = z
  .union([z.number().int(), z.string().regex(/^\s*\d\s*$/, 'must be a whole number 0-4')])
  .transform((v) => Number(v))
  .refine((v) => v >= 0 && v <= 4, 'must be between 0 and 4');

function masterWrite<T extends z.ZodRawShape>(id: string, shape: T) {
  return z
    .object({ name: MasterName.describe('Name of the master, kept exactly as sent'), aliases, ...shape })
    .superRefine((m, ctx) => checkAliases(m as unknown as { name: string; aliases: string[] }, ctx))
    .meta({ id });
}

function checkAliases(m: { name: string; aliases: string[] }, ctx: z.RefinementCtx): void {
  m.aliases.forEach((alias, i) => {
    if (alias === m.name) ctx.addIssue({ code: 'custom', path: ['aliases', i], message: 'repeats the name; aliases are other names' });
    if (m.aliases.indexOf(alias) !== i) ctx.addIssue({ code: 'custom', path: ['aliases', i], message: 'is listed twice' });
  });
}

const optionalName = MasterName.optional();

export const GroupWriteIn = masterWrite('GroupWriteIn', {
  parent: optionalName.describe('Parent group; top level ("Primary") when left out'),
  is_subledger: YesNo.optional(),
  is_deemed_positive: YesNo.optional(),
  is_revenue: YesNo.optional(),
  is_billwise: YesNo.optional(),
});
export const LedgerWriteIn = masterWrite('LedgerWriteIn', {
  parent: MasterName.describe("Group the ledger sits under, e.g. 'Sundry Debtors'"),
  currency: optionalName,
  opening_balance: BooksAmount.optional(),
  gstin: xmlText(15).optional(),
  gst_registration_type: xmlText(60).optional(),
  mobile: xmlText(30).optional(),
  email: xmlText(200).optional(),
  is_billwise: YesNo.optional().describe('Keep balances bill by bill'),
});
export const CurrencyWriteIn = masterWrite('CurrencyWriteIn', {
  mailing_name: xmlText(100).optional().describe("Formal name, e.g. 'US Dollar'"),
  original_name: xmlText(100).optional(),
  expanded_symbol: xmlText(20).optional(),
  iso_code: xmlText(3).optional(),
  decimal_places: DecimalPlaces.optional(),
});
export const UnitWriteIn = masterWrite('UnitWriteIn', {
  is_simple_unit: YesNo.optional().describe('"No" for a compound unit (base_units, additional_units, conversion)'),
  decimal_places: DecimalPlaces.optional(),
  base_units: optionalName,
  additional_units: optionalName,
  conversion: z.number().positive().optional().describe('Compound units: additional units per base unit'),
  original_name: xmlText(100).optional().describe('Formal name of a simple unit, e.g. "Numbers"'),
}).superRefine((u, ctx) => {
  if (u.is_simple_unit === 'No' && (!u.base_units || !u.additional_units || u.conversion === undefined)) {
    ctx.addIssue({ code: 'custom', path: ['is_simple_unit'], message: 'a compound unit needs base_units, additional_units and conversion' });
  }
});
export const GodownWriteIn = masterWrite('GodownWriteIn', { parent: optionalName });
export const StockGroupWriteIn = masterWrite('StockGroupWriteIn', {
  parent: optionalName,
  base_units: optionalName,
  is_batchwise: YesNo.optional(),
});
export const StockCategoryWriteIn = masterWrite('StockCategoryWriteIn', { parent: optionalName });
export const StockItemWriteIn = masterWrite('StockItemWriteIn', {
  parent: optionalName.describe('Stock group; top level when left out'),
  category: optionalName,
  base_units: optionalName.describe("Unit symbol, e.g. 'Nos'"),
  opening_balance: z.number().finite().nonnegative().optional().describe('Opening quantity in base units'),
  opening_value: z.number().finite().nonnegative().optional(),
  gst_applicable: z.enum(['Applicable', 'Not Applicable', 'Yes', 'No']).optional(),
});
export const VoucherTypeWriteIn = masterWrite('VoucherTypeWriteIn', {
  parent: MasterName.describe("Type it derives from, e.g. 'Sales'"),
  numbering_method: z.enum(NUMBERING_METHODS).optional(),
  prevent_duplicates: YesNo.optional(),
  is_active: YesNo.optional(),
  affects_stock: YesNo.optional(),
});

const MASTER_WRITE_SCHEMAS = {
  group: GroupWriteIn,
  ledger: LedgerWriteIn,
  currency: CurrencyWriteIn,
  unit: UnitWriteIn,
  godown: GodownWriteIn,
  stock_group: StockGroupWriteIn,
  stock_category: StockCategoryWriteIn,
  stock_item: StockItemWriteIn,
  voucher_type: VoucherTypeWriteIn,
} as const;

export type MasterWriteIn = { [K in MasterType]: z.infer<(typeof MASTER_WRITE_SCHEMAS)[K]> };
export type AnyMasterWriteIn = MasterWriteIn[MasterType];

/** All nine write schemas, by type (`MasterWriteIn.ledger`, …). */
export const MasterWriteIn = MASTER_WRITE_SCHEMAS;

export function masterWriteSchemaFor<T extends MasterType>(type: T): (typeof MASTER_WRITE_SCHEMAS)[T] {
  return MASTER_WRITE_SCHEMAS[type];
}
