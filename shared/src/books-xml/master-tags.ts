// Where each contract field of a master lives in the books' XML, per master type: one table read by the
// renderer (write) and by the export parser (pull), so the two cannot drift apart.
import type { MasterType } from '../bridge/master-document.js';

/** Element name of the object in import and export XML. */
export const MASTER_ELEMENT: Readonly<Record<MasterType, string>> = {
  group: 'GROUP',
  ledger: 'LEDGER',
  currency: 'CURRENCY',
  unit: 'UNIT',
  godown: 'GODOWN',
  stock_group: 'STOCKGROUP',
  stock_category: 'STOCKCATEGORY',
  stock_item: 'STOCKITEM',
  voucher_type: 'VOUCHERTYPE',
};

/** Object type name inside TDL (a Collection's TYPE). */
export const MASTER_TDL_TYPE: Readonly<Record<MasterType, string>> = {
  group: 'Group',
  ledger: 'Ledger',
  currency: 'Currency',
  unit: 'Unit',
  godown: 'Godown',
  stock_group: 'StockGroup',
  stock_category: 'StockCategory',
  stock_item: 'StockItem',
  voucher_type: 'VoucherType',
};

/** Contract field → element, for the plain scalar fields (derived ones are handled by the parser). */
export const MASTER_FIELD_TAGS: Readonly<Record<MasterType, Readonly<Record<string, string>>>> = {
  group: {
    parent: 'PARENT',
    is_subledger: 'ISSUBLEDGER',
    is_deemed_positive: 'ISDEEMEDPOSITIVE',
    is_revenue: 'ISREVENUE',
    is_billwise: 'ISBILLWISEON',
  },
  ledger: {
    parent: 'PARENT',
    currency: 'CURRENCYNAME',
    opening_balance: 'OPENINGBALANCE',
    gstin: 'PARTYGSTIN',
    gst_registration_type: 'GSTREGISTRATIONTYPE',
    mobile: 'LEDGERMOBILE',
    email: 'EMAIL',
    is_billwise: 'ISBILLWISEON',
  },
  currency: {
    mailing_name: 'MAILINGNAME',
    original_name: 'ORIGINALNAME',
    expanded_symbol: 'EXPANDEDSYMBOL',
    iso_code: 'ISOCURRENCYCODE',
    decimal_places: 'DECIMALPLACES',
  },
  unit: {
    is_simple_unit: 'ISSIMPLEUNIT',
    decimal_places: 'DECIMALPLACES',
    base_units: 'BASEUNITS',
    additional_units: 'ADDITIONALUNITS',
    conversion: 'CONVERSION',
    original_name: 'ORIGINALNAME',
  },
  godown: { parent: 'PARENT' },
  stock_group: {
    parent: 'PARENT',
    base_units: 'BASEUNITS',
    is_batchwise: 'ISBATCHWISEON',
    closing_balance: 'CLOSINGBALANCE',
    closing_value: 'CLOSINGVALUE',
  },
  stock_category: { parent: 'PARENT' },
  stock_item: {
    parent: 'PARENT',
    category: 'CATEGORY',
    base_units: 'BASEUNITS',
    opening_balance: 'OPENINGBALANCE',
    opening_value: 'OPENINGVALUE',
    closing_balance: 'CLOSINGBALANCE',
    closing_value: 'CLOSINGVALUE',
    gst_applicable: 'GSTAPPLICABLE',
  },
  voucher_type: {
    parent: 'PARENT',
    numbering_method: 'NUMBERINGMETHOD',
    prevent_duplicates: 'PREVENTDUPLICATES',
    is_active: 'ISACTIVE',
    affects_stock: 'AFFECTSSTOCK',
  },
};

/** Fields whose value is a Yes/No logical in the books. */
export const LOGICAL_FIELDS: ReadonlySet<string> = new Set([
  'is_subledger', 'is_deemed_positive', 'is_revenue', 'is_billwise', 'is_simple_unit', 'is_batchwise', 'is_active',
  'affects_stock', 'prevent_duplicates',
]);
